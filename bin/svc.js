#!/usr/bin/env node
// The launcher: svc is built from src/ into dist/ and bundled into dist/bundle/ (npm run build).
import '../dist/bundle/cli.js';
