// Settings' Appearance section: the theme (System, Light or Dark) as three radio buttons. A choice
// applies at once and is kept on this device (client/src/lib/theme.ts).
import { useState } from "preact/hooks";
import { chooseTheme, savedTheme, THEME_CHOICES, type ThemeChoice } from "../../../lib/theme";
import style from "./style.module.css";

const LABELS: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

export function ThemeSetting() {
  const [theme, setTheme] = useState(savedTheme);
  const choose = (choice: ThemeChoice) => {
    chooseTheme(choice);
    setTheme(choice);
  };
  return (
    <section class={style.section} aria-labelledby="appearance-heading" data-testid="theme-setting">
      <h2 id="appearance-heading" class={style.heading}>
        Appearance
      </h2>
      <fieldset class={style.choices}>
        <legend class={style.legend}>Theme</legend>
        {THEME_CHOICES.map((choice) => (
          <label key={choice} class={style.choice}>
            <input
              type="radio"
              name="theme"
              value={choice}
              checked={theme === choice}
              onChange={() => choose(choice)}
              data-testid={`theme-${choice}`}
            />
            {LABELS[choice]}
          </label>
        ))}
      </fieldset>
      <p class={style.hint}>System follows your device's light or dark setting. Saved on this device.</p>
    </section>
  );
}
