import Hummingbird

/// The OpenAPI 3.1 description of every route, served at `/api/openapi.json`. A test holds it
/// against the routes ``BrowseyRoutes/register(on:)`` adds, so a route cannot be added without it.
enum OpenAPIDocument {
    static func response() -> Response {
        JSONBody.response(bytes: json.utf8)
    }

    static let json = #"""
{
 "components": {
  "schemas": {
   "ChangeEvent": {
    "properties": {
     "from": {
      "type": "string"
     },
     "item": {
      "$ref": "#/components/schemas/ListItem"
     },
     "path": {
      "type": "string"
     },
     "type": {
      "enum": [
       "created",
       "deleted",
       "modified",
       "renamed",
       "reset"
      ],
      "type": "string"
     }
    },
    "required": [
     "type"
    ],
    "type": "object"
   },
   "ChangeResponse": {
    "properties": {
     "newPath": {
      "type": "string"
     },
     "ok": {
      "type": "boolean"
     }
    },
    "required": [
     "ok",
     "newPath"
    ],
    "type": "object"
   },
   "DeleteResponse": {
    "properties": {
     "ok": {
      "type": "boolean"
     },
     "trashId": {
      "type": "string"
     }
    },
    "required": [
     "ok"
    ],
    "type": "object"
   },
   "Error": {
    "properties": {
     "code": {
      "type": "string"
     },
     "error": {
      "type": "string"
     },
     "message": {
      "type": "string"
     },
     "modified": {
      "description": "In a conflict: the item's current modification date",
      "format": "date-time",
      "type": "string"
     },
     "path": {
      "type": "string"
     },
     "size": {
      "description": "In a conflict: the item's current size",
      "type": "integer"
     }
    },
    "required": [
     "error"
    ],
    "type": "object"
   },
   "HealthResponse": {
    "properties": {
     "auth": {
      "description": "Whether the other endpoints need the token",
      "type": "boolean"
     },
     "hidden": {
      "description": "Whether hidden (dot) names are listed for requests with hidden=1 (the server runs with --hidden)",
      "type": "boolean"
     },
     "host": {
      "properties": {
       "arch": {
        "type": "string"
       },
       "hostname": {
        "type": "string"
       },
       "osRelease": {
        "type": "string"
       },
       "platform": {
        "type": "string"
       },
       "runtime": {
        "type": "string"
       },
       "runtimeVersion": {
        "type": "string"
       },
       "uptimeSeconds": {
        "type": "integer"
       }
      },
      "type": "object"
     },
     "ok": {
      "type": "boolean"
     },
     "readonly": {
      "type": "boolean"
     }
    },
    "required": [
     "ok",
     "readonly",
     "host"
    ],
    "type": "object"
   },
   "ListItem": {
    "properties": {
     "absolutePath": {
      "type": "string"
     },
     "extension": {
      "type": [
       "string",
       "null"
      ]
     },
     "linkBroken": {
      "type": "boolean"
     },
     "linkOutside": {
      "description": "The link leads outside the served folder; its target is not shown",
      "type": "boolean"
     },
     "linkTarget": {
      "type": "string"
     },
     "modified": {
      "description": "ISO-8601 UTC with milliseconds",
      "format": "date-time",
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "size": {
      "type": "integer"
     },
     "targetAbsolutePath": {
      "type": "string"
     },
     "targetPath": {
      "type": [
       "string",
       "null"
      ]
     },
     "targetType": {
      "enum": [
       "file",
       "directory",
       "symlink",
       null
      ],
      "type": [
       "string",
       "null"
      ]
     },
     "type": {
      "enum": [
       "file",
       "directory",
       "symlink"
      ],
      "type": "string"
     }
    },
    "required": [
     "name",
     "type",
     "size",
     "modified",
     "extension",
     "absolutePath"
    ],
    "type": "object"
   },
   "ListResponse": {
    "properties": {
     "absolutePath": {
      "type": "string"
     },
     "items": {
      "items": {
       "$ref": "#/components/schemas/ListItem"
      },
      "type": "array"
     },
     "path": {
      "type": "string"
     }
    },
    "required": [
     "path",
     "absolutePath",
     "items"
    ],
    "type": "object"
   },
   "PathRequest": {
    "properties": {
     "path": {
      "minLength": 1,
      "type": "string"
     }
    },
    "required": [
     "path"
    ],
    "type": "object"
   },
   "RenameRequest": {
    "properties": {
     "newName": {
      "minLength": 1,
      "type": "string"
     },
     "path": {
      "minLength": 1,
      "type": "string"
     }
    },
    "required": [
     "path",
     "newName"
    ],
    "type": "object"
   },
   "RestoreRequest": {
    "properties": {
     "id": {
      "minLength": 1,
      "type": "string"
     }
    },
    "required": [
     "id"
    ],
    "type": "object"
   },
   "SaveRequest": {
    "properties": {
     "baseModified": {
      "format": "date-time",
      "type": "string"
     },
     "baseSize": {
      "type": "integer"
     },
     "content": {
      "type": "string"
     },
     "path": {
      "minLength": 1,
      "type": "string"
     }
    },
    "required": [
     "path",
     "content"
    ],
    "type": "object"
   },
   "SaveResponse": {
    "properties": {
     "modified": {
      "format": "date-time",
      "type": "string"
     },
     "ok": {
      "type": "boolean"
     },
     "size": {
      "type": "integer"
     }
    },
    "required": [
     "ok",
     "modified",
     "size"
    ],
    "type": "object"
   },
   "SearchResponse": {
    "properties": {
     "query": {
      "type": "string"
     },
     "results": {
      "items": {
       "properties": {
        "absolutePath": {
         "type": "string"
        },
        "extension": {
         "type": [
          "string",
          "null"
         ]
        },
        "name": {
         "type": "string"
        },
        "path": {
         "type": "string"
        },
        "score": {
         "type": "integer"
        },
        "type": {
         "enum": [
          "file",
          "directory",
          "symlink"
         ],
         "type": "string"
        }
       },
       "required": [
        "name",
        "path",
        "absolutePath",
        "type",
        "score",
        "extension"
       ],
       "type": "object"
      },
      "type": "array"
     }
    },
    "required": [
     "query",
     "results"
    ],
    "type": "object"
   },
   "StatResponse": {
    "properties": {
     "absolutePath": {
      "type": "string"
     },
     "created": {
      "description": "ISO-8601 UTC with milliseconds",
      "format": "date-time",
      "type": "string"
     },
     "extension": {
      "type": [
       "string",
       "null"
      ]
     },
     "mimeType": {
      "type": "string"
     },
     "modified": {
      "description": "ISO-8601 UTC with milliseconds",
      "format": "date-time",
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "path": {
      "type": "string"
     },
     "permissions": {
      "type": "string"
     },
     "size": {
      "type": "integer"
     },
     "type": {
      "enum": [
       "file",
       "directory",
       "symlink"
      ],
      "type": "string"
     }
    },
    "required": [
     "name",
     "type",
     "size",
     "modified",
     "created",
     "extension",
     "absolutePath"
    ],
    "type": "object"
   },
   "TransferRequest": {
    "properties": {
     "destination": {
      "minLength": 1,
      "type": "string"
     },
     "path": {
      "minLength": 1,
      "type": "string"
     }
    },
    "required": [
     "path",
     "destination"
    ],
    "type": "object"
   },
   "TrashItem": {
    "properties": {
     "deletedAt": {
      "format": "date-time",
      "type": "string"
     },
     "id": {
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "originalPath": {
      "type": "string"
     },
     "size": {
      "type": "integer"
     },
     "type": {
      "enum": [
       "file",
       "directory",
       "symlink"
      ],
      "type": "string"
     }
    },
    "required": [
     "id",
     "name",
     "originalPath",
     "type",
     "size",
     "deletedAt"
    ],
    "type": "object"
   },
   "TrashResponse": {
    "properties": {
     "items": {
      "items": {
       "$ref": "#/components/schemas/TrashItem"
      },
      "type": "array"
     }
    },
    "required": [
     "items"
    ],
    "type": "object"
   },
   "UploadBatchResponse": {
    "properties": {
     "errors": {
      "items": {
       "$ref": "#/components/schemas/Error"
      },
      "type": "array"
     },
     "files": {
      "items": {
       "$ref": "#/components/schemas/UploadResponse"
      },
      "type": "array"
     },
     "ok": {
      "type": "boolean"
     }
    },
    "required": [
     "ok",
     "files",
     "errors"
    ],
    "type": "object"
   },
   "UploadResponse": {
    "properties": {
     "complete": {
      "type": "boolean"
     },
     "ok": {
      "type": "boolean"
     },
     "path": {
      "type": "string"
     },
     "received": {
      "type": "integer"
     },
     "size": {
      "type": "integer"
     }
    },
    "required": [
     "ok",
     "path",
     "size",
     "received",
     "complete"
    ],
    "type": "object"
   },
   "ViewResponse": {
    "properties": {
     "content": {
      "type": "string"
     },
     "dimensions": {
      "properties": {
       "height": {
        "type": "integer"
       },
       "width": {
        "type": "integer"
       }
      },
      "required": [
       "width",
       "height"
      ],
      "type": "object"
     },
     "extension": {
      "type": [
       "string",
       "null"
      ]
     },
     "filename": {
      "type": "string"
     },
     "highlighted": {
      "description": "Source code as HTML with its tokens in <span class=\"hl-c|s|n|k|t|a\"> (comment, string, number, keyword, tag, attribute); up to 1 MiB of code",
      "type": "string"
     },
     "html": {
      "description": "A Markdown file rendered to HTML (raw HTML in it escaped)",
      "type": "string"
     },
     "language": {
      "type": "string"
     },
     "mimeType": {
      "type": "string"
     },
     "modified": {
      "description": "ISO-8601 UTC with milliseconds",
      "format": "date-time",
      "type": "string"
     },
     "size": {
      "type": "integer"
     },
     "type": {
      "enum": [
       "text",
       "image",
       "video"
      ],
      "type": "string"
     },
     "url": {
      "type": "string"
     }
    },
    "required": [
     "type",
     "filename",
     "extension",
     "size"
    ],
    "type": "object"
   }
  },
  "securitySchemes": {
   "token": {
    "description": "With --auth: the token the banner prints. Also accepted as the browsey_token cookie or ?token=. /api/health never needs it; without it every other endpoint answers 401 {\"error\":\"Unauthorized\",\"message\":\"Valid API token required\"} with WWW-Authenticate: Bearer realm=\"Browsey API\".",
    "scheme": "bearer",
    "type": "http"
   }
  }
 },
 "info": {
  "description": "Browsey's wire contract as this server implements it. Paths are relative to the served root (a leading / optional); an absolute path under the root is accepted too. Errors are {\"error\": message} with the status given.",
  "title": "Browsey API",
  "version": "0.1.0"
 },
 "openapi": "3.1.0",
 "paths": {
  "/api/archive": {
   "get": {
    "description": "Hidden and ignored names are left out as in listings (hidden=1 with --hidden), and so are symlinks.",
    "parameters": [
     {
      "description": "The folder; default the root",
      "in": "query",
      "name": "path",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "1 includes hidden names (only when the server runs with --hidden); any other value is ignored",
      "in": "query",
      "name": "hidden",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/zip": {
        "schema": {
         "format": "binary",
         "type": "string"
        }
       }
      },
      "description": "The archive"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Path is not a directory"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Directory not found"
     }
    },
    "summary": "A folder as a zip, streamed (stored entries, UTF-8 names, ZIP64 when needed)"
   }
  },
  "/api/copy": {
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/TransferRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ChangeResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Request body too large"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Copy an item into a folder under a free name (name (copy).ext)",
    "tags": [
     "write"
    ]
   }
  },
  "/api/delete": {
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PathRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/DeleteResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Request body too large"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Move an item to the server's trash (or delete it for good with --no-trash)",
    "tags": [
     "write"
    ]
   }
  },
  "/api/events": {
   "get": {
    "parameters": [
     {
      "description": "Folder to watch (with everything below it); default the root",
      "in": "query",
      "name": "path",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "The id of the last event seen, for clients that cannot set Last-Event-ID",
      "in": "query",
      "name": "lastEventId",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "header",
      "name": "Last-Event-ID",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "text/event-stream": {
        "schema": {
         "description": "One event of the stream: its event name, its data (a ChangeEvent as JSON) and its id",
         "properties": {
          "data": {
           "type": "string"
          },
          "event": {
           "type": "string"
          },
          "id": {
           "type": "string"
          },
          "retry": {
           "type": "integer"
          }
         },
         "type": "object"
        }
       }
      },
      "description": "An event stream; each event's data is a ChangeEvent"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path, or Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Directory not found"
     },
     "503": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "The server runs with --no-index (noIndex)"
     }
    },
    "summary": "Server-Sent Events of changes under a folder (created, deleted, modified, renamed, each with the entry as a listing item; `reset` when missed events are no longer kept). Heartbeat comments while idle; resumes after the Last-Event-ID header (or lastEventId query). A client more than 1,024 events behind is disconnected.",
    "tags": [
     "read"
    ]
   }
  },
  "/api/file": {
   "get": {
    "parameters": [
     {
      "description": "The file",
      "in": "query",
      "name": "path",
      "required": true,
      "schema": {
       "minLength": 1,
       "type": "string"
      }
     },
     {
      "description": "false answers inline (Content-Disposition: inline); any other value, or none, answers as an attachment",
      "in": "query",
      "name": "download",
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "bytes=a-b, bytes=a- or bytes=-n",
      "in": "header",
      "name": "Range",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "header",
      "name": "If-None-Match",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "header",
      "name": "If-Modified-Since",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "header",
      "name": "If-Range",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "*/*": {
        "schema": {
         "format": "binary",
         "type": "string"
        }
       }
      },
      "description": "The whole file (Content-Type: the file's own type from the content-type registry, ; charset=utf-8 for text)"
     },
     "206": {
      "content": {
       "*/*": {
        "schema": {
         "format": "binary",
         "type": "string"
        }
       }
      },
      "description": "The requested range, with Content-Range (Content-Type: the file's own type from the content-type registry, ; charset=utf-8 for text)"
     },
     "304": {
      "description": "Not modified"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Path required, Cannot download directory"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path, or Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "File not found"
     },
     "416": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Range not satisfiable; Content-Range: bytes */size"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "The file's bytes, streamed; single and suffix ranges; ETag and Last-Modified validators",
    "tags": [
     "read"
    ]
   },
   "head": {
    "parameters": [
     {
      "description": "The file",
      "in": "query",
      "name": "path",
      "required": true,
      "schema": {
       "minLength": 1,
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "Headers only"
     },
     "400": {
      "description": "Path required, Cannot download directory"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: a path outside the root (.., NUL, a link leading out), or a write to a read-only server"
     },
     "404": {
      "description": "File not found"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "The headers of GET /api/file, without the body",
    "tags": [
     "read"
    ]
   },
   "put": {
    "description": "Never replaces an existing file unless overwrite=1 or If-Match carries its ETag; onConflict=rename takes a free name instead of 409. With Content-Range: bytes START-END/TOTAL the upload is resumable: GET /api/upload says how many bytes are held, the next PUT continues from there.",
    "parameters": [
     {
      "description": "The file to write",
      "in": "query",
      "name": "path",
      "required": true,
      "schema": {
       "minLength": 1,
       "type": "string"
      }
     },
     {
      "description": "1 to replace an existing file",
      "in": "query",
      "name": "overwrite",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "rename picks a free name when the target exists; any other value is ignored",
      "in": "query",
      "name": "onConflict",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "bytes START-END/TOTAL for a resumable upload",
      "in": "header",
      "name": "Content-Range",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "header",
      "name": "If-Match",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "application/octet-stream": {
       "schema": {
        "format": "binary",
        "type": "string"
       }
      }
     },
     "description": " (none: an empty file)",
     "required": false
    },
    "responses": {
     "201": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UploadResponse"
        }
       }
      },
      "description": "The file is in place"
     },
     "202": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UploadResponse"
        }
       }
      },
      "description": "Part of a resumable upload received"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid name, Content-Range, or a body shorter than Content-Length"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Directory not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "File already exists"
     },
     "412": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "If-Match did not match"
     },
     "416": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "A resumable upload continues at another byte (the body's size says where)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Upload a file: the raw body, streamed to disk, put in place only when complete",
    "tags": [
     "write"
    ]
   }
  },
  "/api/health": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/HealthResponse"
        }
       }
      },
      "description": "Health"
     }
    },
    "summary": "The server is up; its mode and machine",
    "tags": [
     "read"
    ]
   }
  },
  "/api/list": {
   "get": {
    "parameters": [
     {
      "description": "Folder; empty or missing means the root",
      "in": "query",
      "name": "path",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "1 includes hidden names (only when the server runs with --hidden); any other value is ignored",
      "in": "query",
      "name": "hidden",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ListResponse"
        }
       }
      },
      "description": "The listing"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Path is not a directory"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path, or Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Directory not found"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "A folder's entries, folders first, then names",
    "tags": [
     "read"
    ]
   }
  },
  "/api/mkdir": {
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PathRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ChangeResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "An item with that name already exists"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Request body too large"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Create a folder",
    "tags": [
     "write"
    ]
   }
  },
  "/api/move": {
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/TransferRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ChangeResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "An item with that name already exists"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Request body too large"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Move an item into a folder, never over an item there",
    "tags": [
     "write"
    ]
   }
  },
  "/api/openapi.json": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      },
      "description": "OpenAPI 3.1"
     }
    },
    "summary": "This description",
    "tags": [
     "read"
    ]
   }
  },
  "/api/rename": {
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/RenameRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ChangeResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "An item with that name already exists"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Request body too large"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Rename an item within its folder",
    "tags": [
     "write"
    ]
   }
  },
  "/api/restore": {
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/RestoreRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ChangeResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "An item with that name already exists"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Request body too large"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Put a deleted item back where it was",
    "tags": [
     "write"
    ]
   }
  },
  "/api/save": {
   "post": {
    "description": "Atomic (temp file, fsync, rename), permissions kept. Both baseModified and baseSize are required unless an If-Match header carries the file's ETag. The answer carries the new ETag.",
    "parameters": [
     {
      "description": "The file's ETag from /api/file or a previous save",
      "in": "header",
      "name": "If-Match",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/SaveRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SaveResponse"
        }
       }
      },
      "description": "Done"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Invalid JSON body, path required, or an operation that makes no sense"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Access denied: Invalid path; Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "File has changed since it was read (body carries the current modified and size)"
     },
     "412": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "If-Match did not match the file's ETag"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "File too large to save (over 5 MiB)"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Writes need a JSON body (Content-Type: application/json)"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Replace a text file's contents if it is still the version read",
    "tags": [
     "write"
    ]
   }
  },
  "/api/search": {
   "get": {
    "parameters": [
     {
      "description": "Folder to search under; default the root",
      "in": "query",
      "name": "path",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "q",
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "How many results at most: a whole number, taken as 1 when smaller and 200 when larger (default 50); anything else is 400 badFilter",
      "in": "query",
      "name": "limit",
      "schema": {
       "default": 50,
       "type": "integer"
      }
     },
     {
      "description": "file or directory; empty: both",
      "in": "query",
      "name": "type",
      "required": false,
      "schema": {
       "enum": [
        "file",
        "directory",
        ""
       ],
       "type": "string"
      }
     },
     {
      "description": "Only these extensions, comma-separated (md,txt)",
      "in": "query",
      "name": "ext",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "Only entries modified at or after this ISO 8601 date or date-time",
      "in": "query",
      "name": "after",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "Only entries modified before this ISO 8601 date or date-time",
      "in": "query",
      "name": "before",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "Only files of at least this size: bytes, or with K, M, G, T",
      "in": "query",
      "name": "minSize",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "Only files of at most this size: bytes, or with K, M, G, T",
      "in": "query",
      "name": "maxSize",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "1 includes hidden names (only when the server runs with --hidden); any other value is ignored",
      "in": "query",
      "name": "hidden",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SearchResponse"
        }
       }
      },
      "description": "Matches"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "A filter that makes no sense (badFilter)"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path, or Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Directory not found"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Names under a folder matching a query, best first (fuzzy, case and accents ignored; a substring always outranks a scattered match), with filters; with no q but a filter, the newest first. Answered from the index when ready.",
    "tags": [
     "read"
    ]
   }
  },
  "/api/stat": {
   "get": {
    "parameters": [
     {
      "description": "The item",
      "in": "query",
      "name": "path",
      "required": true,
      "schema": {
       "minLength": 1,
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/StatResponse"
        }
       }
      },
      "description": "The metadata"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Path required"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path, or Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "File not found"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "One item's metadata",
    "tags": [
     "read"
    ]
   }
  },
  "/api/trash": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TrashResponse"
        }
       }
      },
      "description": "The trash"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode"
     }
    },
    "summary": "The deleted items that can be restored, newest first",
    "tags": [
     "write"
    ]
   }
  },
  "/api/upload": {
   "get": {
    "parameters": [
     {
      "description": "The file to write",
      "in": "query",
      "name": "path",
      "required": true,
      "schema": {
       "minLength": 1,
       "type": "string"
      }
     },
     {
      "description": "The file's total size",
      "in": "query",
      "name": "size",
      "required": true,
      "schema": {
       "type": "integer"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UploadResponse"
        }
       }
      },
      "description": "Bytes held"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "size required"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "The path, or the folder it lies in, does not exist"
     }
    },
    "summary": "How many bytes of a resumable upload the server holds",
    "tags": [
     "write"
    ]
   },
   "post": {
    "description": "Every part with a filename becomes a file in the folder (its last path component). Never replaces unless overwrite=1; onConflict=rename takes free names. A page of another site (Origin) is refused. A form without any file part is 400 invalidMultipart.",
    "parameters": [
     {
      "description": "The folder; default the root",
      "in": "query",
      "name": "path",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "overwrite",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "rename picks a free name when the target exists; any other value is ignored",
      "in": "query",
      "name": "onConflict",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "multipart/form-data": {
       "schema": {
        "properties": {
         "files": {
          "items": {
           "format": "binary",
           "type": "string"
          },
          "type": "array"
         }
        },
        "type": "object"
       }
      }
     },
     "required": true
    },
    "responses": {
     "201": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UploadBatchResponse"
        }
       }
      },
      "description": "Every file is in place"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "A malformed multipart body"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Server is in read-only mode; Cross-site request refused; Access denied: Invalid path"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Destination not found"
     },
     "409": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UploadBatchResponse"
        }
       }
      },
      "description": "Some files were refused (errors lists them); the others are in place"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Uploads need multipart/form-data with a boundary"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "Upload files from a browser form (multipart/form-data), each streamed to disk and put in place when whole",
    "tags": [
     "write"
    ]
   }
  },
  "/api/view": {
   "get": {
    "parameters": [
     {
      "description": "The file",
      "in": "query",
      "name": "path",
      "required": true,
      "schema": {
       "minLength": 1,
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ViewResponse"
        }
       }
      },
      "description": "The view"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Path required, Cannot view directory, File type not viewable, File too large to view"
     },
     "403": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Access denied: Invalid path, or Permission denied"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "File not found"
     },
     "500": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "Internal server error"
     }
    },
    "summary": "What a viewer shows: text with its content, or an image or video with its URL",
    "tags": [
     "read"
    ]
   }
  }
 },
 "security": [
  {},
  {
   "token": []
  }
 ]
}
"""#
}
