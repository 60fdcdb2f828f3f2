#!/usr/bin/env node
// Builds what is missing or older than its inputs (scripts/build.mjs keys each step by them).
import './build.mjs';
