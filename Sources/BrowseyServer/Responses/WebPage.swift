import Hummingbird

/// The page served for every non-API GET until the full web UI lands: a plain, working folder
/// browser over `/api/list` (the URL path is the folder, as in Browsey).
enum WebPage {
    static func response() -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(html)
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: buffer))
    }

    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Browsey</title>
        <style>
        body{font:16px/1.4 system-ui,sans-serif;margin:0;background:#fafafa;color:#222}
        header{padding:12px 16px;background:#fff;border-bottom:1px solid #ddd;position:sticky;top:0}
        ul{list-style:none;margin:0;padding:0} li a{display:flex;justify-content:space-between;padding:12px 16px;
        border-bottom:1px solid #eee;color:inherit;text-decoration:none} small{color:#777}
        .error{padding:16px;color:#b00}
        </style></head>
        <body><header><strong>Browsey</strong> <span id="where"></span></header>
        <ul id="items"></ul><div id="error" class="error" hidden></div>
        <script>
        const folder = decodeURIComponent(location.pathname) || "/";
        document.getElementById("where").textContent = folder;
        const list = document.getElementById("items");
        function row(href, name, detail) {
          const li = document.createElement("li"), a = document.createElement("a");
          a.href = href; a.textContent = name;
          const small = document.createElement("small"); small.textContent = detail; a.appendChild(small);
          li.appendChild(a); list.appendChild(li);
        }
        fetch("/api/list?path=" + encodeURIComponent(folder)).then(r => r.json().then(b => [r.ok, b])).then(([ok, body]) => {
          if (!ok) throw new Error(body.error || "Error");
          const base = folder.endsWith("/") ? folder : folder + "/";
          if (folder !== "/") row(base.replace(/[^/]+\\/$/, ""), "..", "");
          for (const item of body.items) {
            const path = base + item.name;
            const href = item.type === "directory" ? path.split("/").map(encodeURIComponent).join("/") + "/"
              : "/api/file?path=" + encodeURIComponent(path) + "&download=false";
            row(href, item.name, item.type === "directory" ? "folder" : item.size + " bytes");
          }
          if (!body.items.length) row("#", "This folder is empty", "");
        }).catch(e => { const box = document.getElementById("error"); box.hidden = false; box.textContent = e.message; });
        </script></body></html>
        """
}
