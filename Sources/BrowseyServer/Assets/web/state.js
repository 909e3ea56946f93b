// What the page shows now, shared by every module.

export const state = {
  folder: "/", items: [], rows: [], rendered: new Map(), layout: "list",
  viewing: null, viewerPushed: false, images: [], events: null, reloadTimer: 0,
  searchSerial: 0, searchTimer: 0, searchResults: [], searchIndex: -1, searchScope: "names", loadSerial: 0,
  writable: false, folderMissing: false, infoItem: null, action: null, editing: null, cameFrom: -1,
  selecting: false, selected: new Set(), tokenServer: false,
};
