// BrowseyUI holds the SwiftUI views of Browsey's apps: the document browser grid
// (DocumentBrowserView over DocumentBrowser's model) and the companion app's screens
// (ServerListView, DirectoryView, FileViewerView over BrowseyClient's view models). SwiftUI exists
// on Apple platforms only, so on Linux this module compiles to nothing; the views hold no logic
// of their own: everything they show and do is a model's, tested on Linux.
