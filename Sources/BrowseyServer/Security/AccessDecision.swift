import Hummingbird

/// Decides what each request may do (``RequestAccess``) and records it in the context, after
/// the host, CORS and token checks and before any route: the one place a rule that depends on
/// who asks belongs.
struct AccessDecision<Context: AuthenticatingRequestContext>: RouterMiddleware {
    /// What every request may do on this server.
    let access: RequestAccess

    /// Every request under `safePath`'s rules, writing unless `readOnly`.
    init(safePath: SafePath, readOnly: Bool) {
        access = RequestAccess(paths: safePath, mayWrite: !readOnly)
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var decided = context
        decided.access = access
        return try await next(request, decided)
    }
}
