// BrowseyUI holds the SwiftUI views of Browsey's apps: the document browser grid and the companion
// app's screens. SwiftUI exists on Apple platforms only, so on Linux this module compiles to
// nothing; everything the views show comes from models in BrowseyClient and DocumentBrowser, which
// are plain Swift types tested on Linux.
#if canImport(SwiftUI)
    import SwiftUI
#endif
