// webhooks-server.ts
import { createServer } from "node:http";
import { receiveWebhook } from "./webhooks-receiver.js";

createServer(receiveWebhook).listen(8080);
