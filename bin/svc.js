#!/usr/bin/env node
// The launcher: all of svc lives in dist/ (built from src/ by `npm run build`).
import '../dist/cli.js';
