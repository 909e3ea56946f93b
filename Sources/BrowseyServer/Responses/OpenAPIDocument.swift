import Hummingbird

/// The OpenAPI 3.1 description of every route, served at `/api/openapi.json`. A test holds it
/// against the routes ``BrowseyRoutes/register(on:)`` adds, so a route cannot be added without it.
///
/// `Assets/openapi.json` is the document; until the build embeds that folder, this is a copy
/// of it, and a test fails when the two differ.
enum OpenAPIDocument {
    static func response() -> Response {
        JSONBody.response(bytes: json.utf8)
    }

    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Browsey API",
    "version": "0.1.0",
    "description": "Browsey's wire contract as this server implements it. Paths are relative to the served root (a leading / optional); an absolute path under the root is accepted too. Errors are {\"error\": message} with the status given."
  },
  "tags": [
    {"name": "read", "description": "Reading the served folder: what every server answers, read-only or not"},
    {
      "name": "write",
      "description": "Changing the served folder: only when the server runs with --no-readonly (403 otherwise)"
    }
  ],
  "security": [{}, {"token": []}, {"tokenCookie": []}, {"tokenQuery": []}],
  "paths": {
    "/api/health": {
      "get": {
        "summary": "The server is up; its mode and machine",
        "tags": ["read"],
        "responses": {
          "200": {
            "description": "Health",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HealthResponse"}}}
          }
        }
      }
    },
    "/api/list": {
      "get": {
        "summary": "A folder's entries, folders first, then names",
        "tags": ["read"],
        "parameters": [
          {
            "name": "path",
            "in": "query",
            "description": "Folder; empty or missing means the root",
            "required": false,
            "schema": {"type": "string"}
          },
          {"$ref": "#/components/parameters/Hidden"}
        ],
        "responses": {
          "200": {
            "description": "The listing",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ListResponse"}}}
          },
          "400": {"$ref": "#/components/responses/PathNotADirectory"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadForbidden"},
          "404": {"$ref": "#/components/responses/DirectoryNotFound"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/stat": {
      "get": {
        "summary": "One item's metadata",
        "tags": ["read"],
        "parameters": [
          {
            "name": "path",
            "in": "query",
            "description": "The item",
            "required": true,
            "schema": {"type": "string", "minLength": 1}
          }
        ],
        "responses": {
          "200": {
            "description": "The metadata",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StatResponse"}}}
          },
          "400": {
            "description": "Path required",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadForbidden"},
          "404": {"$ref": "#/components/responses/FileNotFound"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/view": {
      "get": {
        "summary": "What a viewer shows: text with its content, or an image or video with its URL",
        "tags": ["read"],
        "parameters": [{"$ref": "#/components/parameters/FilePath"}],
        "responses": {
          "200": {
            "description": "The view",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ViewResponse"}}}
          },
          "400": {
            "description": "Path required, Cannot view directory, File type not viewable, File too large to view",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadForbidden"},
          "404": {"$ref": "#/components/responses/FileNotFound"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/file": {
      "get": {
        "summary": "The file's bytes, streamed; single and suffix ranges; ETag and Last-Modified validators",
        "tags": ["read"],
        "parameters": [
          {"$ref": "#/components/parameters/FilePath"},
          {
            "name": "download",
            "in": "query",
            "description": "false answers inline (Content-Disposition: inline); any other value, or none, answers as an attachment",
            "schema": {"type": "string"}
          },
          {
            "name": "Range",
            "in": "header",
            "description": "bytes=a-b, bytes=a- or bytes=-n",
            "schema": {"type": "string"}
          },
          {"name": "If-None-Match", "in": "header", "schema": {"type": "string"}},
          {"name": "If-Modified-Since", "in": "header", "schema": {"type": "string"}},
          {"name": "If-Range", "in": "header", "schema": {"type": "string"}}
        ],
        "responses": {
          "200": {
            "description": "The whole file (Content-Type: the file's own type from the content-type registry, ; charset=utf-8 for text)",
            "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}}
          },
          "206": {
            "description": "The requested range, with Content-Range (Content-Type: the file's own type from the content-type registry, ; charset=utf-8 for text)",
            "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}}
          },
          "304": {"description": "Not modified"},
          "400": {
            "description": "Path required, Cannot download directory",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadForbidden"},
          "404": {"$ref": "#/components/responses/FileNotFound"},
          "416": {
            "description": "Range not satisfiable; Content-Range: bytes */size",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      },
      "head": {
        "summary": "The headers of GET /api/file, without the body",
        "tags": ["read"],
        "parameters": [{"$ref": "#/components/parameters/FilePath"}],
        "responses": {
          "200": {"description": "Headers only"},
          "400": {"description": "Path required, Cannot download directory"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {
            "description": "Access denied: a path outside the root (.., NUL, a link leading out), or a write to a read-only server",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "404": {"description": "File not found"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      },
      "put": {
        "summary": "Upload a file: the raw body, streamed to disk, put in place only when complete",
        "description": "Never replaces an existing file unless overwrite=1 or If-Match carries its ETag; onConflict=rename takes a free name instead of 409. With Content-Range: bytes START-END/TOTAL the upload is resumable: GET /api/upload says how many bytes are held, the next PUT continues from there.",
        "tags": ["write"],
        "parameters": [
          {"$ref": "#/components/parameters/TargetPath"},
          {"$ref": "#/components/parameters/Overwrite"},
          {"$ref": "#/components/parameters/OnConflict"},
          {
            "name": "Content-Range",
            "in": "header",
            "description": "bytes START-END/TOTAL for a resumable upload",
            "required": false,
            "schema": {"type": "string"}
          },
          {"$ref": "#/components/parameters/IfMatch"}
        ],
        "requestBody": {
          "description": "The file's bytes (none: an empty file)",
          "required": false,
          "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}
        },
        "responses": {
          "201": {
            "description": "The file is in place",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UploadResponse"}}}
          },
          "202": {
            "description": "Part of a resumable upload received",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UploadResponse"}}}
          },
          "400": {
            "description": "Invalid name, Content-Range, or a body shorter than Content-Length",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {
            "description": "Server is in read-only mode; Access denied: Invalid path",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "404": {"$ref": "#/components/responses/DirectoryNotFound"},
          "409": {
            "description": "File already exists",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "412": {
            "description": "If-Match did not match",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "416": {
            "description": "A resumable upload continues at another byte (the body's size says where)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/search": {
      "get": {
        "summary": "Names under a folder matching a query, best first",
        "description": "Fuzzy, case and accents ignored; a substring always outranks a scattered match. Filters narrow the results; with no q but a filter, the newest come first. Answered from the index when it is ready, by walking the folder until then.",
        "tags": ["read"],
        "parameters": [
          {
            "name": "path",
            "in": "query",
            "description": "Folder to search under; default the root",
            "required": false,
            "schema": {"type": "string"}
          },
          {"name": "q", "in": "query", "schema": {"type": "string"}},
          {
            "name": "limit",
            "in": "query",
            "description": "How many results at most: a whole number, taken as 1 when smaller and 200 when larger (default 50); anything else is 400 badFilter",
            "schema": {"type": "integer", "default": 50}
          },
          {
            "name": "type",
            "in": "query",
            "description": "file or directory; empty: both",
            "required": false,
            "schema": {"type": "string", "enum": ["file", "directory", ""]}
          },
          {
            "name": "ext",
            "in": "query",
            "description": "Only these extensions, comma-separated (md,txt)",
            "required": false,
            "schema": {"type": "string"}
          },
          {
            "name": "after",
            "in": "query",
            "description": "Only entries modified at or after this ISO 8601 date or date-time",
            "required": false,
            "schema": {"type": "string"}
          },
          {
            "name": "before",
            "in": "query",
            "description": "Only entries modified before this ISO 8601 date or date-time",
            "required": false,
            "schema": {"type": "string"}
          },
          {
            "name": "minSize",
            "in": "query",
            "description": "Only files of at least this size: bytes, or with K, M, G, T",
            "required": false,
            "schema": {"type": "string"}
          },
          {
            "name": "maxSize",
            "in": "query",
            "description": "Only files of at most this size: bytes, or with K, M, G, T",
            "required": false,
            "schema": {"type": "string"}
          },
          {"$ref": "#/components/parameters/Hidden"}
        ],
        "responses": {
          "200": {
            "description": "Matches",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SearchResponse"}}}
          },
          "400": {
            "description": "A filter that makes no sense (badFilter)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadForbidden"},
          "404": {"$ref": "#/components/responses/DirectoryNotFound"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/archive": {
      "get": {
        "summary": "A folder as a zip, streamed (stored entries, UTF-8 names, ZIP64 when needed)",
        "description": "Hidden and ignored names are left out as in listings (hidden=1 with --hidden), and so are symlinks.",
        "tags": ["read"],
        "parameters": [{"$ref": "#/components/parameters/FolderPath"}, {"$ref": "#/components/parameters/Hidden"}],
        "responses": {
          "200": {
            "description": "The archive",
            "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}
          },
          "400": {"$ref": "#/components/responses/PathNotADirectory"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {
            "description": "Access denied: Invalid path",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "404": {"$ref": "#/components/responses/DirectoryNotFound"}
        }
      }
    },
    "/api/events": {
      "get": {
        "summary": "Server-Sent Events of changes under a folder",
        "description": "Each event is a ChangeEvent: created, deleted, modified or renamed, with the entry as a listing item, or reset when missed events are no longer kept. Heartbeat comments while idle; resumes after the Last-Event-ID header (or lastEventId query). A client more than 1,024 events behind is disconnected.",
        "tags": ["read"],
        "parameters": [
          {
            "name": "path",
            "in": "query",
            "description": "Folder to watch (with everything below it); default the root",
            "required": false,
            "schema": {"type": "string"}
          },
          {
            "name": "lastEventId",
            "in": "query",
            "description": "The id of the last event seen, for clients that cannot set Last-Event-ID",
            "required": false,
            "schema": {"type": "string"}
          },
          {
            "name": "Last-Event-ID",
            "in": "header",
            "required": false,
            "schema": {"type": "string"}
          }
        ],
        "responses": {
          "200": {
            "description": "An event stream; each event's data is a ChangeEvent",
            "content": {
              "text/event-stream": {
                "schema": {
                  "description": "One event of the stream: its event name, its data (a ChangeEvent as JSON) and its id",
                  "type": "object",
                  "properties": {
                    "data": {
                      "type": "string",
                      "contentMediaType": "application/json",
                      "contentSchema": {"$ref": "#/components/schemas/ChangeEvent"}
                    },
                    "event": {"type": "string"},
                    "id": {"type": "string"},
                    "retry": {"type": "integer"}
                  }
                }
              }
            }
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadForbidden"},
          "404": {"$ref": "#/components/responses/DirectoryNotFound"},
          "503": {
            "description": "The server runs with --no-index (noIndex)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          }
        }
      }
    },
    "/api/upload": {
      "get": {
        "summary": "How many bytes of a resumable upload the server holds",
        "tags": ["write"],
        "parameters": [
          {"$ref": "#/components/parameters/TargetPath"},
          {
            "name": "size",
            "in": "query",
            "description": "The file's total size",
            "required": true,
            "schema": {"type": "integer"}
          }
        ],
        "responses": {
          "200": {
            "description": "Bytes held",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UploadResponse"}}}
          },
          "400": {
            "description": "size required",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadOnly"},
          "404": {
            "description": "The path, or the folder it lies in, does not exist",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          }
        }
      },
      "post": {
        "summary": "Upload files from a browser form (multipart/form-data), each streamed to disk and put in place when whole",
        "description": "Every part with a filename becomes a file in the folder (its last path component). Never replaces unless overwrite=1; onConflict=rename takes free names. A page of another site (Origin) is refused. A form without any file part is 400 invalidMultipart.",
        "tags": ["write"],
        "parameters": [
          {"$ref": "#/components/parameters/FolderPath"},
          {"$ref": "#/components/parameters/Overwrite"},
          {"$ref": "#/components/parameters/OnConflict"}
        ],
        "requestBody": {
          "required": true,
          "content": {
            "multipart/form-data": {
              "schema": {
                "type": "object",
                "properties": {"files": {"type": "array", "items": {"type": "string", "format": "binary"}}}
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Every file is in place",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UploadBatchResponse"}}}
          },
          "400": {
            "description": "A malformed multipart body",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {
            "description": "Server is in read-only mode; Cross-site request refused; Access denied: Invalid path",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "404": {
            "description": "Destination not found",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "409": {
            "description": "Some files were refused (errors lists them); the others are in place",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UploadBatchResponse"}}}
          },
          "415": {
            "description": "Uploads need multipart/form-data with a boundary",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/save": {
      "post": {
        "summary": "Replace a text file's contents if it is still the version read",
        "description": "Atomic (temp file, fsync, rename), permissions kept. Both baseModified and baseSize are required unless an If-Match header carries the file's ETag. The answer carries the new ETag.",
        "tags": ["write"],
        "parameters": [{"$ref": "#/components/parameters/IfMatch"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SaveRequest"}}}
        },
        "responses": {
          "200": {
            "description": "Done",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SaveResponse"}}}
          },
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {
            "description": "File has changed since it was read (body carries the current modified and size)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "412": {
            "description": "If-Match did not match the file's ETag",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "413": {
            "description": "File too large to save (over 5 MiB)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
          },
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/mkdir": {
      "post": {
        "summary": "Create a folder",
        "tags": ["write"],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PathRequest"}}}
        },
        "responses": {
          "200": {"$ref": "#/components/responses/Changed"},
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/NameTaken"},
          "413": {"$ref": "#/components/responses/BodyTooLarge"},
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/rename": {
      "post": {
        "summary": "Rename an item within its folder",
        "tags": ["write"],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RenameRequest"}}}
        },
        "responses": {
          "200": {"$ref": "#/components/responses/Changed"},
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/NameTaken"},
          "413": {"$ref": "#/components/responses/BodyTooLarge"},
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/move": {
      "post": {
        "summary": "Move an item into a folder, never over an item there",
        "tags": ["write"],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TransferRequest"}}}
        },
        "responses": {
          "200": {"$ref": "#/components/responses/Changed"},
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/NameTaken"},
          "413": {"$ref": "#/components/responses/BodyTooLarge"},
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/copy": {
      "post": {
        "summary": "Copy an item into a folder under a free name (name (copy).ext)",
        "tags": ["write"],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TransferRequest"}}}
        },
        "responses": {
          "200": {"$ref": "#/components/responses/Changed"},
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "413": {"$ref": "#/components/responses/BodyTooLarge"},
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/delete": {
      "post": {
        "summary": "Move an item to the server's trash (or delete it for good with --no-trash)",
        "tags": ["write"],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PathRequest"}}}
        },
        "responses": {
          "200": {
            "description": "Done",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DeleteResponse"}}}
          },
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "413": {"$ref": "#/components/responses/BodyTooLarge"},
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/trash": {
      "get": {
        "summary": "The deleted items that can be restored, newest first",
        "tags": ["write"],
        "responses": {
          "200": {
            "description": "The trash",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TrashResponse"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/ReadOnly"}
        }
      }
    },
    "/api/restore": {
      "post": {
        "summary": "Put a deleted item back where it was",
        "tags": ["write"],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RestoreRequest"}}}
        },
        "responses": {
          "200": {"$ref": "#/components/responses/Changed"},
          "400": {"$ref": "#/components/responses/BadWrite"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/WriteForbidden"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/NameTaken"},
          "413": {"$ref": "#/components/responses/BodyTooLarge"},
          "415": {"$ref": "#/components/responses/JSONBodyRequired"},
          "500": {"$ref": "#/components/responses/InternalError"}
        }
      }
    },
    "/api/openapi.json": {
      "get": {
        "summary": "This description",
        "tags": ["read"],
        "responses": {
          "200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}
        }
      }
    }
  },
  "components": {
    "schemas": {
      "ListItem": {
        "description": "One entry of a folder, as GET /api/list and the event stream show it. The link fields are sent for symlinks only.",
        "type": "object",
        "properties": {
          "name": {"description": "The name", "type": "string"},
          "type": {"$ref": "#/components/schemas/ItemType"},
          "size": {"description": "Size in bytes", "type": "integer"},
          "modified": {"$ref": "#/components/schemas/Timestamp"},
          "extension": {"$ref": "#/components/schemas/Extension"},
          "absolutePath": {
            "description": "The absolute filesystem path (the iOS app sends it back as path)",
            "type": "string"
          },
          "linkTarget": {
            "description": "For a symlink: the target as stored; null when it leads outside the served folder",
            "type": ["string", "null"]
          },
          "targetPath": {
            "description": "For a symlink: the target relative to the served root, when it lies inside",
            "type": ["string", "null"]
          },
          "targetAbsolutePath": {
            "description": "For a symlink: the target's absolute path; null when it leads outside the served folder",
            "type": ["string", "null"]
          },
          "targetType": {
            "description": "For a symlink: what the target is; null when broken or outside",
            "type": ["string", "null"],
            "enum": ["file", "directory", "symlink", null]
          },
          "linkBroken": {"description": "For a symlink: whether the target is missing", "type": "boolean"},
          "linkOutside": {
            "description": "The link leads outside the served folder; its target is not shown",
            "type": "boolean"
          }
        },
        "required": ["name", "type", "size", "modified", "extension", "absolutePath"]
      },
      "ItemType": {
        "description": "What an entry is: a regular file (or anything that is neither a folder nor a link), a folder, or a symbolic link",
        "type": "string",
        "enum": ["file", "directory", "symlink"]
      },
      "Timestamp": {"description": "ISO-8601 UTC with milliseconds", "type": "string", "format": "date-time"},
      "Extension": {
        "description": "The extension without the dot, case kept; null for folders, dot-names and names without one",
        "type": ["string", "null"]
      },
      "ListResponse": {
        "type": "object",
        "properties": {
          "path": {"type": "string"},
          "absolutePath": {"type": "string"},
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/ListItem"}}
        },
        "required": ["path", "absolutePath", "items"]
      },
      "StatResponse": {
        "type": "object",
        "properties": {
          "name": {"type": "string"},
          "type": {"$ref": "#/components/schemas/ItemType"},
          "size": {"type": "integer"},
          "modified": {"$ref": "#/components/schemas/Timestamp"},
          "created": {"$ref": "#/components/schemas/Timestamp"},
          "extension": {"$ref": "#/components/schemas/Extension"},
          "absolutePath": {"type": "string"},
          "mimeType": {"type": "string"},
          "path": {"type": "string"},
          "permissions": {"type": "string"}
        },
        "required": ["name", "type", "size", "modified", "created", "extension", "absolutePath"]
      },
      "ViewResponse": {
        "type": "object",
        "properties": {
          "type": {"type": "string", "enum": ["text", "image", "video"]},
          "filename": {"type": "string"},
          "extension": {"$ref": "#/components/schemas/Extension"},
          "size": {"type": "integer"},
          "content": {"type": "string"},
          "dimensions": {
            "type": "object",
            "properties": {"width": {"type": "integer"}, "height": {"type": "integer"}},
            "required": ["width", "height"]
          },
          "highlighted": {
            "description": "Source code as HTML with its tokens in <span class=\"hl-c|s|n|k|t|a\"> (comment, string, number, keyword, tag, attribute); up to 1 MiB of code",
            "type": "string"
          },
          "html": {"description": "A Markdown file rendered to HTML (raw HTML in it escaped)", "type": "string"},
          "language": {"type": "string"},
          "mimeType": {"type": "string"},
          "modified": {"$ref": "#/components/schemas/Timestamp"},
          "url": {"type": "string"}
        },
        "required": ["type", "filename", "extension", "size"]
      },
      "SearchResponse": {
        "type": "object",
        "properties": {
          "query": {"type": "string"},
          "results": {"type": "array", "items": {"$ref": "#/components/schemas/SearchHit"}}
        },
        "required": ["query", "results"]
      },
      "SearchHit": {
        "description": "One search result",
        "type": "object",
        "properties": {
          "name": {"type": "string"},
          "path": {"description": "Relative to the served root", "type": "string"},
          "absolutePath": {"type": "string"},
          "type": {"$ref": "#/components/schemas/ItemType"},
          "score": {"description": "Higher is better", "type": "integer"},
          "extension": {"$ref": "#/components/schemas/Extension"}
        },
        "required": ["name", "path", "absolutePath", "type", "score", "extension"]
      },
      "ChangeEvent": {
        "type": "object",
        "properties": {
          "type": {"type": "string", "enum": ["created", "deleted", "modified", "renamed", "reset"]},
          "from": {"type": "string"},
          "item": {"$ref": "#/components/schemas/ListItem"},
          "path": {"type": "string"}
        },
        "required": ["type"]
      },
      "HealthResponse": {
        "description": "With --auth, asked without the token, only ok and auth: nothing about the machine or the mode",
        "type": "object",
        "properties": {
          "ok": {"type": "boolean"},
          "auth": {"description": "Whether the other endpoints need the token", "type": "boolean"},
          "hidden": {
            "description": "Whether hidden (dot) names are listed for requests with hidden=1 (the server runs with --hidden)",
            "type": "boolean"
          },
          "host": {
            "type": "object",
            "properties": {
              "arch": {"type": "string"},
              "hostname": {"type": "string"},
              "osRelease": {"type": "string"},
              "platform": {"type": "string"},
              "runtime": {"type": "string"},
              "runtimeVersion": {"type": "string"},
              "uptimeSeconds": {"type": "integer"}
            }
          },
          "readonly": {"type": "boolean"}
        },
        "required": ["ok", "auth"]
      },
      "PathRequest": {
        "type": "object",
        "properties": {"path": {"type": "string", "minLength": 1}},
        "required": ["path"]
      },
      "RenameRequest": {
        "type": "object",
        "properties": {"path": {"type": "string", "minLength": 1}, "newName": {"type": "string", "minLength": 1}},
        "required": ["path", "newName"]
      },
      "TransferRequest": {
        "type": "object",
        "properties": {"path": {"type": "string", "minLength": 1}, "destination": {"type": "string", "minLength": 1}},
        "required": ["path", "destination"]
      },
      "SaveRequest": {
        "type": "object",
        "properties": {
          "path": {"type": "string", "minLength": 1},
          "content": {"type": "string"},
          "baseModified": {"type": "string", "format": "date-time"},
          "baseSize": {"type": "integer"}
        },
        "required": ["path", "content"]
      },
      "SaveResponse": {
        "type": "object",
        "properties": {
          "ok": {"type": "boolean"},
          "modified": {"type": "string", "format": "date-time"},
          "size": {"type": "integer"}
        },
        "required": ["ok", "modified", "size"]
      },
      "ChangeResponse": {
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "newPath": {"type": "string"}},
        "required": ["ok", "newPath"]
      },
      "DeleteResponse": {
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "trashId": {"type": "string"}},
        "required": ["ok"]
      },
      "RestoreRequest": {
        "type": "object",
        "properties": {"id": {"type": "string", "minLength": 1}},
        "required": ["id"]
      },
      "TrashResponse": {
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/TrashItem"}}},
        "required": ["items"]
      },
      "TrashItem": {
        "type": "object",
        "properties": {
          "id": {"type": "string"},
          "name": {"type": "string"},
          "originalPath": {"type": "string"},
          "type": {"$ref": "#/components/schemas/ItemType"},
          "size": {"type": "integer"},
          "deletedAt": {"type": "string", "format": "date-time"}
        },
        "required": ["id", "name", "originalPath", "type", "size", "deletedAt"]
      },
      "UploadResponse": {
        "type": "object",
        "properties": {
          "ok": {"type": "boolean"},
          "path": {"type": "string"},
          "size": {"type": "integer"},
          "received": {"type": "integer"},
          "complete": {"type": "boolean"}
        },
        "required": ["ok", "path", "size", "received", "complete"]
      },
      "UploadBatchResponse": {
        "type": "object",
        "properties": {
          "ok": {"type": "boolean"},
          "files": {"type": "array", "items": {"$ref": "#/components/schemas/UploadResponse"}},
          "errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}}
        },
        "required": ["ok", "files", "errors"]
      },
      "Error": {
        "type": "object",
        "properties": {
          "error": {"type": "string"},
          "code": {"type": "string"},
          "message": {"type": "string"},
          "modified": {
            "description": "In a conflict: the item's current modification date",
            "type": "string",
            "format": "date-time"
          },
          "path": {"type": "string"},
          "size": {"description": "In a conflict: the item's current size", "type": "integer"}
        },
        "required": ["error"]
      }
    },
    "parameters": {
      "FilePath": {
        "name": "path",
        "in": "query",
        "description": "The file",
        "required": true,
        "schema": {"type": "string", "minLength": 1}
      },
      "TargetPath": {
        "name": "path",
        "in": "query",
        "description": "The file to write",
        "required": true,
        "schema": {"type": "string", "minLength": 1}
      },
      "FolderPath": {
        "name": "path",
        "in": "query",
        "description": "The folder; default the root",
        "required": false,
        "schema": {"type": "string"}
      },
      "Hidden": {
        "name": "hidden",
        "in": "query",
        "description": "1 includes hidden names (only when the server runs with --hidden); any other value is ignored",
        "required": false,
        "schema": {"type": "string"}
      },
      "Overwrite": {
        "name": "overwrite",
        "in": "query",
        "description": "1 to replace an existing file",
        "required": false,
        "schema": {"type": "string"}
      },
      "OnConflict": {
        "name": "onConflict",
        "in": "query",
        "description": "rename picks a free name when the target exists; any other value is ignored",
        "required": false,
        "schema": {"type": "string"}
      },
      "IfMatch": {
        "name": "If-Match",
        "in": "header",
        "description": "The file's ETag from /api/file or a previous save",
        "required": false,
        "schema": {"type": "string"}
      }
    },
    "responses": {
      "Changed": {
        "description": "Done",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChangeResponse"}}}
      },
      "BadWrite": {
        "description": "Invalid JSON body, path required, or an operation that makes no sense",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "PathNotADirectory": {
        "description": "Path is not a directory",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "Unauthorized": {
        "description": "With --auth: the token is missing or wrong",
        "headers": {"WWW-Authenticate": {"description": "Bearer realm=\"Browsey API\"", "schema": {"type": "string"}}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "ReadForbidden": {
        "description": "Access denied: Invalid path, or Permission denied",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "WriteForbidden": {
        "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "ReadOnly": {
        "description": "Server is in read-only mode",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "NotFound": {
        "description": "Not found",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "FileNotFound": {
        "description": "File not found",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "DirectoryNotFound": {
        "description": "Directory not found",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "NameTaken": {
        "description": "An item with that name already exists",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "BodyTooLarge": {
        "description": "Request body too large",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "JSONBodyRequired": {
        "description": "Writes need a JSON body (Content-Type: application/json)",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      },
      "InternalError": {
        "description": "Internal server error",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
      }
    },
    "securitySchemes": {
      "token": {
        "type": "http",
        "scheme": "bearer",
        "description": "With --auth: the token the banner prints. /api/health never needs it; without it every other endpoint answers 401 {\"error\":\"Unauthorized\",\"message\":\"Valid API token required\"} with WWW-Authenticate: Bearer realm=\"Browsey API\"."
      },
      "tokenCookie": {
        "name": "browsey_token",
        "in": "cookie",
        "description": "The token as the web UI keeps it, set by a page asked with ?token=",
        "type": "apiKey"
      },
      "tokenQuery": {
        "name": "token",
        "in": "query",
        "description": "The token in the URL, as the banner's link and QR code carry it",
        "type": "apiKey"
      }
    }
  }
}
"""#
}
