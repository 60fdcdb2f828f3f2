#!/usr/bin/env node
// Builds what is missing or older than its inputs (packages/cli/src/build.mjs keys each step by them).
import './build.mjs';
