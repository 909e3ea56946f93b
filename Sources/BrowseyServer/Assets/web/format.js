// Formatting for people, and what kind of file an item is.

export function formatSize(bytes) {
  if (bytes == null) return "";
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return unit === 0 ? (bytes === 1 ? "1 byte" : bytes + " bytes") : value.toFixed(value < 10 ? 1 : 0) + " " + units[unit];
}
const numberFormat = new Intl.NumberFormat();
/** A count of items, with the reader's thousands separators: "10,000 items". */
export function formatCount(count) { return count === 1 ? "1 item" : numberFormat.format(count) + " items"; }
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
/** A video's length as a player shows it: "0:07", "12:05", "1:02:03". */
export function formatDuration(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600), minutes = Math.floor((total % 3600) / 60), rest = total % 60;
  const two = (value) => String(value).padStart(2, "0");
  return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
}
export function formatDate(text) { const date = new Date(text); return isNaN(date.getTime()) ? "" : dateFormat.format(date); }
const kinds = {
  image: ["png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "avif", "heic"],
  video: ["mp4", "mov", "webm", "m4v"],
  audio: ["mp3", "m4a", "aac", "wav", "flac", "ogg", "oga", "opus"],
  pdf: ["pdf"],
  archive: ["zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar"],
  markdown: ["md", "markdown"],
  code: ["swift", "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "go", "rs", "c", "h", "cpp", "hpp", "cc", "java", "kt",
    "cs", "php", "sh", "bash", "zsh", "json", "yaml", "yml", "toml", "html", "htm", "xhtml", "css", "scss", "xml", "sql", "lua", "zig"],
};
export function kindOf(item) {
  if (item.type === "directory" || item.targetType === "directory") return "folder";
  const extension = (item.extension || "").toLowerCase();
  for (const [kind, list] of Object.entries(kinds)) if (list.includes(extension)) return kind;
  return "file";
}
export function isFolder(item) { return kindOf(item) === "folder"; }
