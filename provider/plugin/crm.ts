#!/usr/bin/env node
// pulumi-resource-crm: the crm package's native provider plugin (see ./server.ts).
import { pluginMain } from "./server";

pluginMain("crm");
