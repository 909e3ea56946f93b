public import Hummingbird

/// Answers 405 with an `Allow` header when a documented API path is asked with a method it does
/// not take (any method, `TRACE` and `QUERY` included); HEAD is allowed wherever GET is.
/// Unknown paths are left to the router (404).
public struct AllowedMethods<Context: RequestContext>: RouterMiddleware {
    let allowed: [String: (methods: Set<HTTPRequest.Method>, header: String)]

    /// The methods each path takes.
    public init(_ methodsByPath: [String: Set<HTTPRequest.Method>]) {
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options]
        allowed = methodsByPath.mapValues { methods in
            let all = methods.contains(.get) ? methods.union([.head]) : methods
            return (all, order.filter { all.contains($0) }.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// Lets the request through to `next` or answers it here.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let path = allowed[request.uri.path], !path.methods.contains(request.method) {
            throw APIError(
                .methodNotAllowed, "Method not allowed", code: .methodNotAllowed,
                headers: [.allow: path.header])
        }
        return try await next(request, context)
    }
}
