/// The pauses of the browser's animated sequences, and how long it waits for the disk.
public struct DocumentBrowserTiming: Sendable, Hashable {
    /// Between publishing the document that is opening (its cell animates) and calling the
    /// host's open action.
    public var openingDelay: Duration
    /// Between revealing a new document (the grid scrolls to it) and opening it.
    public var revealDelay: Duration
    /// How long a new document may take to appear after the host wrote it.
    public var creationTimeout: Duration
    /// How often the browser looks for it meanwhile.
    public var creationPollInterval: Duration
    /// Changes on disk closer together than this are applied as one.
    public var watchCoalescing: Duration

    /// The timing; by default close to Procreate's gallery.
    public init(
        openingDelay: Duration = .milliseconds(600), revealDelay: Duration = .milliseconds(350),
        creationTimeout: Duration = .seconds(5), creationPollInterval: Duration = .milliseconds(50),
        watchCoalescing: Duration = .milliseconds(50)
    ) {
        self.openingDelay = openingDelay
        self.revealDelay = revealDelay
        self.creationTimeout = creationTimeout
        self.creationPollInterval = creationPollInterval
        self.watchCoalescing = watchCoalescing
    }
}
