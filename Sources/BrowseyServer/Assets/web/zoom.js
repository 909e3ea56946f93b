// Zoom and pan for images: pinch, double-tap (or double-click), the wheel; drag to pan.

export const zoom = {
  image: null, scale: 1, x: 0, y: 0, pointers: new Map(), pinch: null, lastTap: 0, tap: null, touchToggled: -1000,
  /** @type {((scale: number) => void) | null} Told of every change of scale (the viewer loads the original past the preview's pixels). */
  changed: null,
  get zoomed() { return this.scale > 1.01; },
  attach(image) {
    this.image = image; this.scale = 1; this.x = 0; this.y = 0; this.pointers.clear(); this.pinch = null;
    this.apply();
  },
  /// Gestures anywhere in the viewer act on its image (a small image is a small target).
  listen(area) {
    const active = () => this.image && this.image.isConnected;
    area.addEventListener("wheel", (event) => {
      if (!active()) return;
      event.preventDefault();
      this.zoomAt(this.scale * Math.exp(-event.deltaY / 300), event.clientX, event.clientY);
    }, { passive: false });
    // A touch double tap is handled on its own (below); the dblclick the browser adds to it is not a second one.
    area.addEventListener("dblclick", (event) => { if (active() && performance.now() - this.touchToggled > 500) this.toggle(event.clientX, event.clientY); });
    area.addEventListener("pointerdown", (event) => {
      if (!active()) return;
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        this.pinch = { distance: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), scale: this.scale };
        this.tap = null;
      } else {
        this.tap = event.pointerType === "touch" ? { time: performance.now(), x: event.clientX, y: event.clientY } : null;
      }
    });
    area.addEventListener("pointermove", (event) => {
      const previous = this.pointers.get(event.pointerId);
      if (!previous || !active()) return;
      const current = { x: event.clientX, y: event.clientY };
      this.pointers.set(event.pointerId, current);
      if (this.pointers.size === 2 && this.pinch) {
        const [a, b] = [...this.pointers.values()];
        this.zoomAt(this.pinch.scale * Math.hypot(a.x - b.x, a.y - b.y) / this.pinch.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
      } else if (this.zoomed) {
        this.x += current.x - previous.x; this.y += current.y - previous.y; this.apply();
      }
    });
    const up = (event) => {
      this.pointers.delete(event.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
      // A tap is short and still; two taps in a row toggle the zoom.
      const tap = this.tap;
      this.tap = null;
      if (event.type !== "pointerup" || !tap || performance.now() - tap.time > 250
        || Math.hypot(event.clientX - tap.x, event.clientY - tap.y) > 10) return;
      if (performance.now() - this.lastTap < 300) {
        this.toggle(event.clientX, event.clientY);
        this.lastTap = 0; this.touchToggled = performance.now();
      }
      else this.lastTap = performance.now();
    };
    area.addEventListener("pointerup", up);
    area.addEventListener("pointercancel", up);
  },
  toggle(x, y) { if (this.zoomed) { this.scale = 1; this.x = 0; this.y = 0; this.apply(); } else this.zoomAt(2.5, x, y); },
  zoomAt(scale, clientX, clientY) {
    const next = Math.max(1, Math.min(8, scale));
    const box = this.image.getBoundingClientRect();
    // Keep the point under the fingers (or the cursor) where it is.
    const originX = box.left + box.width / 2 - this.x, originY = box.top + box.height / 2 - this.y;
    const ratio = next / this.scale;
    this.x = (this.x - (clientX - originX)) * ratio + (clientX - originX);
    this.y = (this.y - (clientY - originY)) * ratio + (clientY - originY);
    this.scale = next;
    if (!this.zoomed) { this.x = 0; this.y = 0; }
    this.apply();
  },
  apply() {
    if (!this.image) return;
    this.image.style.transform = "translate(" + this.x + "px, " + this.y + "px) scale(" + this.scale + ")";
    this.image.style.cursor = this.zoomed ? "grab" : "zoom-in";
    this.image.dataset.zoom = this.scale.toFixed(2);
    if (this.changed) this.changed(this.scale);
  },
};
