// Preferences, kept in this browser.

export const prefs = {
  get(key, fallback) {
    try { const value = localStorage.getItem("browsey." + key); return value === null ? fallback : JSON.parse(value); }
    catch { return fallback; }
  },
  set(key, value) { try { localStorage.setItem("browsey." + key, JSON.stringify(value)); } catch { /* private mode */ } },
};
