// Worker entry: the API app and the share links' page, plus the Durable Object class the runtime needs
// exported from main. Everything else is the client's assets, served before the Worker runs (wrangler.toml).
import { adminPage, isAdminPage } from "./admin-page";
import { app } from "./app";
import { SHARE_PAGE_PREFIX, sharedPage } from "./shares/page";

export { ConversationObject } from "../durable-objects/conversation/conversation-object";
export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(SHARE_PAGE_PREFIX)) return sharedPage(request, env);
    if (isAdminPage(pathname)) return adminPage(request, env);
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
