#!/usr/bin/env node
console.log('liverec cli', process.argv.slice(2));
