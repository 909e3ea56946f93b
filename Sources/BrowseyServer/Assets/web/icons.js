// Icons drawn here (no emoji font or icon font needed: both are missing on many machines).

const page = "M6.5 3h7.5l5 5v12a1 1 0 0 1-1 1h-11.5a1 1 0 0 1-1-1v-16a1 1 0 0 1 1-1z M14 3v5h5";
const iconPaths = {
  folder: "M3 6.5a1.5 1.5 0 0 1 1.5-1.5h4.5l2 2h8.5a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-15a1.5 1.5 0 0 1-1.5-1.5z",
  file: page,
  markdown: page + " M8.5 13h7 M8.5 16.5h5",
  pdf: page + " M8.5 13.5h7 M8.5 16.5h7",
  code: "M9 8l-4.5 4 4.5 4 M15 8l4.5 4-4.5 4",
  image: "M4 5h16v14h-16z M4 16l5-5 4 4 3-3 4 4 M15.5 8a1.5 1.5 0 1 0 0.01 0",
  video: "M3 6.5h12.5v11h-12.5z M15.5 10.5l5-3v9l-5-3",
  audio: "M9 17.5a2.5 2.5 0 1 1-5 0a2.5 2.5 0 1 1 5 0z M9 17.5v-12l11-2v12 M20 15.5a2.5 2.5 0 1 1-5 0a2.5 2.5 0 1 1 5 0z",
  archive: "M4 8h16v12h-16z M3 4h18v4h-18z M10 12h4",
  link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1 M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
  parent: "M9 13l-5-5 5-5 M4 8h10a6 6 0 0 1 0 12h-3",
  info: "M12 3a9 9 0 1 0 0.01 0z M12 11v6 M12 7.5v.5",
  search: "M10.5 4a6.5 6.5 0 1 0 0.01 0z M15.5 15.5l5 5",
  refresh: "M20 12a8 8 0 1 1-2.3-5.7 M20 4v5h-5",
  settings: "M4 7h9 M17 7h3 M15 5v4 M4 17h3 M11 17h9 M9 15v4",
  back: "M15 5l-7 7 7 7",
  close: "M6 6l12 12 M18 6l-12 12",
  download: "M12 4v11 M7 10l5 5 5-5 M5 20h14",
  grid: "M4 4h6.5v6.5h-6.5z M13.5 4h6.5v6.5h-6.5z M4 13.5h6.5v6.5h-6.5z M13.5 13.5h6.5v6.5h-6.5z",
  play: "M9 7l8 5-8 5z",
  original: "M4 9v-5h5 M20 9v-5h-5 M4 15v5h5 M20 15v5h-5 M9 9h6v6h-6z",
  more: "M5 12h.01 M12 12h.01 M19 12h.01",
  select: "M4 4h16v16h-16z M8 12l3 3 5-6",
  trash: "M4 7h16 M9 7v-2.5h6v2.5 M6 7l1 13h10l1-13 M10 11v6 M14 11v6",
  "new-folder": "M3 6.5a1.5 1.5 0 0 1 1.5-1.5h4.5l2 2h8.5a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-15a1.5 1.5 0 0 1-1.5-1.5z M12 10v6 M9 13h6",
  upload: "M12 16v-11 M7 9l5-5 5 5 M5 20h14",
  branch: "M6 3v12 M6 15a3 3 0 1 0 0.01 0 M18 3a3 3 0 1 0 0.01 0 M18 6c0 5-12 4-12 9",
};
export function svgIcon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("glyph", "glyph-" + name);
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", iconPaths[name] || page);
  svg.append(path);
  return svg;
}
