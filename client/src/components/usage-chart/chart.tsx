// The usage chart itself, on uPlot (a small canvas charting library, ~20 KB gzip, loaded only here, from
// index.tsx's lazy import): one bar per UTC day, stacked by model. Colours come from the theme's own
// variables, read as resolved colours (a canvas cannot read `light-dark()`), and are read again when
// the theme changes; the chart follows its container's width.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { type ChartData, formatAmount } from "./chart-data";

const PALETTE = ["--accent", "--ok", "--warning", "--critical", "--info", "--debug"];

function themeColour(host: HTMLElement, variable: string): string {
  const probe = document.createElement("span");
  probe.style.color = `var(${variable})`;
  host.appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

function options(host: HTMLElement, data: ChartData, width: number): uPlot.Options {
  const text = themeColour(host, "--muted");
  const grid = themeColour(host, "--border");
  const bars = uPlot.paths.bars?.({ size: [0.7, 40], align: 0 });
  return {
    width,
    height: 220,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: { x: { time: false } },
    axes: [
      {
        stroke: text,
        grid: { show: false },
        ticks: { stroke: grid },
        values: (_u, splits) => splits.map((i) => data.days[i]?.slice(5) ?? ""),
      },
      {
        stroke: text,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid },
        size: 60,
        values: (_u, splits) => splits.map((v) => formatAmount(v, data.metric, true)),
      },
    ],
    // Stacked: each series is the running total up to its model, drawn from the tallest down so the
    // shorter ones sit in front.
    series: [
      {},
      ...data.models
        .map((model, i) => ({
          label: model,
          fill: themeColour(host, PALETTE[i % PALETTE.length] ?? "--accent"),
          stroke: "transparent",
          width: 0,
          paths: bars,
          points: { show: false },
        }))
        .reverse(),
    ],
  };
}

export default function UsageChartCanvas({ data }: { data: ChartData }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const x = data.days.map((_, i) => i);
    const stacked = data.stacked.slice().reverse();
    let plot = new uPlot(options(element, data, element.clientWidth || 300), [x, ...stacked], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth || 300, height: 220 }));
    resize.observe(element);
    // The theme switched (Settings → Appearance, or the system's): colours read again.
    const scheme = matchMedia("(prefers-color-scheme: dark)");
    const redraw = () => {
      plot.destroy();
      plot = new uPlot(options(element, data, element.clientWidth || 300), [x, ...stacked], element);
    };
    scheme.addEventListener("change", redraw);
    const themed = new MutationObserver(redraw);
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme", "class", "style"] });
    return () => {
      resize.disconnect();
      themed.disconnect();
      scheme.removeEventListener("change", redraw);
      plot.destroy();
    };
  }, [data]);
  return <div ref={host} data-testid="usage-chart-canvas" aria-hidden="true" />;
}
