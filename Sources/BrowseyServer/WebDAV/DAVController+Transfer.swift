import FileTree
import Hummingbird

extension DAVController {
    /// `COPY` and `MOVE` to the `Destination` header's path on this server.
    ///
    /// The destination resolves under the same rules as any path (encoded `..`, NUL, hidden
    /// names, another host: refused before anything is touched). `Overwrite: F` with something
    /// at the destination is 412, decided by the non-replacing rename itself, so two clients
    /// racing for a name cannot both win. With `Overwrite: T` (the default) what is there goes
    /// to the trash when it is on (else is removed) before the copy or move lands under the
    /// name, again without replacing. Answers 201 for a new name, 204 for a replaced one.
    func transfer(
        _ request: Request, context: FileServerContext, path: String, moves: Bool
    ) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        guard let header = request.headers[.destination] else {
            throw APIError(.badRequest, "Destination required", code: .pathRequired)
        }
        let (destinationPath, foreign) = DAVPath.destination(header, authority: request.head.authority)
        if foreign { throw APIError(.badGateway, "Destination is on another server", code: .invalidPath) }
        guard let destinationPath else { throw APIError.invalidPath }
        let overwrite: Bool
        switch request.headers[.overwrite]?.trimmingSpaces().uppercased() {
        case nil, "T": overwrite = true
        case "F": overwrite = false
        default: throw APIError(.badRequest, "Overwrite is T or F", code: .invalidBody)
        }
        let depth = request.headers[.depth]?.trimmingSpaces().lowercased() ?? "infinity"
        guard depth == "infinity" || (depth == "0" && !moves) else {
            throw APIError(.badRequest, "Depth must be infinity (or 0 for a COPY)", code: .invalidBody)
        }
        let source = try resolveForWriting(path, context, notFound: "Not found", need: moves ? .write : .read)
        let destination = try resolveForWriting(destinationPath, context, notFound: "Not found")
        try context.access.checkWhole(source)
        try context.access.checkWhole(destination)
        guard source.relative != destination.relative else {
            throw APIError(.forbidden, "Source and destination are the same", code: .invalidPath)
        }
        if DAVLock.isBelow(destination.relative, source.relative) {
            throw APIError(.badRequest, "Cannot move or copy a folder into itself", code: .intoItself)
        }
        let (from, name) = try parentFolder(source, rules: rules, missing: .notFound)
        guard let sourceStatus = from.status(of: name) else { throw APIError.notFound }
        let (into, newName) = try parentFolder(destination, rules: rules)
        let replaces = into.contains(newName)
        if replaces && !overwrite {
            throw APIError(.preconditionFailed, "The destination exists", code: .alreadyExists)
        }
        if moves {
            try await checkLocks(
                request, rules: rules, path: source.relative, changesMembership: true,
                includesDescendants: true)
        }
        try await checkLocks(
            request, rules: rules, path: destination.relative, changesMembership: true,
            includesDescendants: true)
        if replaces {
            try await remove(newName, in: into, path: destination.relative)
            await locks.removeAll(at: destination.relative)
        }
        let shallow = depth == "0" && sourceStatus.type == .directory
        do {
            try await place(name, in: from, as: newName, in: into, moves: moves, shallow: shallow)
        } catch let error as APIError where error.code == .alreadyExists {
            // Taken meanwhile: the non-replacing rename kept what is there.
            throw APIError(.preconditionFailed, "The destination exists", code: .alreadyExists)
        }
        if moves { await locks.removeAll(at: source.relative) }
        return Response(status: replaces ? .noContent : .created, headers: [.contentLength: "0"])
    }

    /// Moves or copies `name` to `newName` (never replacing what is there); a shallow copy of a
    /// folder is a new empty folder.
    private func place(
        _ name: String, in from: OpenFolder, as newName: String, in into: OpenFolder, moves: Bool,
        shallow: Bool
    ) async throws {
        try await offThread { () throws(FileTreeError) in
            if moves {
                try FileOperations.move(named: name, in: from, to: newName, in: into)
            } else if shallow {
                try FileOperations.makeFolder(named: newName, in: into)
            } else {
                try FileOperations.copy(named: name, in: from, to: newName, in: into)
                Self.copyDeadProperties(name, in: from, to: newName, in: into)
            }
        }
    }
}
