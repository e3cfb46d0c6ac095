// Entry point: mounts the app shell into #app.
import { render } from "preact";
import { App } from "./components/app";
import "./global.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
