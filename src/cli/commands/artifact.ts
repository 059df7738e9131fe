// flux's OCI artifact verbs: `push|pull|tag artifact` and `list artifacts` (their own verbs, one
// sub-command each, as in flux), `build artifact` and `diff artifact` (under build and diff:
// build-diff.ts). They talk to the registry only, never to a cluster: --timeout is their one global flag.
import { Command } from "commander";
import { listArtifactsCommand } from "./artifact/list-artifacts.js";
import { pullArtifactCommand } from "./artifact/pull-artifact.js";
import { pushArtifactCommand } from "./artifact/push-artifact.js";
import { tagArtifactCommand } from "./artifact/tag-artifact.js";

export const pushCommand = () => new Command("push").description("Push commands").addCommand(pushArtifactCommand());
export const pullCommand = () => new Command("pull").description("Pull commands").addCommand(pullArtifactCommand());
export const tagCommand = () => new Command("tag").description("Tag commands").addCommand(tagArtifactCommand());
export const listCommand = () => new Command("list").description("List commands").addCommand(listArtifactsCommand());
