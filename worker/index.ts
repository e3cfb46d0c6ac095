// Worker entry: the API app, plus the Durable Object class the runtime needs exported from main.
import { app } from "./app";

export { ConversationObject } from "../durable-objects/conversation/conversation-object";
export default app satisfies ExportedHandler<Env>;
