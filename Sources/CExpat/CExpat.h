// Expat, the streaming XML parser, from the system (Debian: libexpat1-dev): WebDAV's request
// bodies are parsed with it (see Sources/BrowseyServer/WebDAV/DAVXMLParser.swift).
#include <expat.h>
