internal import CFileTreeSystem

/// Where a program ``BoundedProcess`` runs may reach on disk: it may read and run what lies
/// beneath `readable`, and do anything beneath `writable`; whatever it opens elsewhere, or
/// through a link that leads elsewhere, fails. Enforced by the kernel (Linux's Landlock) on
/// the child before it runs, so it holds for every file the program opens, however it came to
/// open it: a repository's `.git` whose objects are links to another repository's outside the
/// served folder, or a decoder that a crafted file takes over.
///
/// The program also makes no socket (a seccomp filter, on x86-64 and arm64: no TCP, UDP,
/// MPTCP, raw or Unix socket, a connected pair aside, and no io_uring, which could make one:
/// a Unix socket could reach a system daemon's by its path), and where the
/// kernel can (Landlock ABI 4 and 6) it binds and connects no TCP socket, and can neither
/// signal a process outside its confinement (the server itself) nor connect to an abstract
/// Unix socket one listens on: none of the programs run confined needs the network, and a
/// decoder taken over can then neither call out nor kill the server.
///
/// ```swift
/// let confined = Confinement.system(writable: ["/srv/share"])
/// let output = BoundedProcess.run(git, arguments: ["git", "log"], timeout: .seconds(5), outputLimit: 1 << 20,
///                                 confinement: confined)
/// ```
public struct Confinement: Sendable, Equatable {
    /// Folders (or files) the program may read and run from, with all they hold.
    public var readable: [String]
    /// Folders (or files) the program may read, write, make and remove things in.
    public var writable: [String]
    /// Open descriptors of files (or folders) the program may read: the rule is on what each
    /// is, so no path is looked up again (a poster helper's input, which a link swapped in by
    /// its name could otherwise replace).
    public var readableDescriptors: [Int32] = []

    /// A confinement to `readable` and `writable`.
    public init(readable: [String], writable: [String] = []) {
        self.readable = readable
        self.writable = writable
    }

    /// What a system program needs to start and run (its executable, libraries, locale and
    /// time zone data: `/usr`, `/lib`, `/lib64`, `/bin`, `/sbin`, `/etc`, and `/dev/null` to
    /// write to), plus `readable` and `writable`. Nothing of a home folder, `/tmp` or `/proc`.
    public static func system(readable: [String] = [], writable: [String] = []) -> Confinement {
        Confinement(
            readable: ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/opt", "/nix/store"]
                + readable,
            writable: ["/dev/null"] + writable)
    }

    /// The version of the kernel's confinement this system has (Landlock's ABI), 0 when it has
    /// none: then ``BoundedProcess`` runs programs unconfined.
    public static var kernelVersion: Int { Int(cft_confinement_version()) }
}
