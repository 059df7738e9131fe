// The git smart-HTTP server is a local-fleet feature (the demo serves its repositories with it).
export * from "../../src/local/git-http-server.js";
