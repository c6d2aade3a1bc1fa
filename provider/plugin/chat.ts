#!/usr/bin/env node
// pulumi-resource-chat: the chat package's native provider plugin (see ./server.ts).
import { pluginMain } from "./server";

pluginMain("chat");
