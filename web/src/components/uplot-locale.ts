// Runs before uPlot loads: uPlot builds an Intl.NumberFormat from navigator.language at import, which throws for tags
// such as "en-US@posix" (Chromium started under the POSIX locale reports it) and would stop the whole UI.
try {
  new Intl.NumberFormat(navigator.language);
} catch {
  Object.defineProperty(navigator, 'language', { value: 'en-US', configurable: true });
}

export {};
