public import Hummingbird

/// CORS for the origins given with `--cors`, and only those: their pages may call the API (with
/// the token cookie), preflights are answered, and no other page gets a CORS header. Without
/// `--cors` the middleware is not installed at all.
///
/// Hummingbird's `CORSMiddleware` takes several origins only as a variadic list, which a list
/// read from the command line cannot be passed as; this is the same behaviour for a set.
public struct CORSPolicy<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    /// Allows `origins` (`https://app.example`, scheme and host and port as the browser sends them).
    public init(origins: [String]) {
        self.origins = Set(origins.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
    }

    /// Lets the request through to `next` or answers it here.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let origin = request.headers[.origin], origins.contains(origin) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin,
                    .accessControlAllowCredentials: "true",
                    .accessControlAllowMethods: "GET, HEAD, POST, PUT, OPTIONS",
                    .accessControlAllowHeaders:
                        "Authorization, Content-Type, If-Match, If-None-Match, Range, Content-Range",
                    .accessControlMaxAge: "600",
                    .vary: "Origin",
                ])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlAllowCredentials] = "true"
        response.headers[.accessControlExposeHeaders] = "ETag, Content-Range, Content-Disposition, Location"
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        return response
    }
}
