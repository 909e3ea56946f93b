import Hummingbird

/// Decides what each request may do (``RequestAccess``) and records it in the context, after
/// the host, CORS, token and session checks and before any route: the one place a rule that
/// depends on who asks belongs. On a server with accounts the access carries the folder rules
/// and the signed-in user, and every controller's `resolve` asks it.
struct AccessDecision<Context: AuthenticatingRequestContext>: RouterMiddleware {
    let safePath: SafePath
    let readOnly: Bool
    let policy: AccessPolicy?

    /// Every request under `safePath`'s rules, writing unless `readOnly`, and under `policy`'s
    /// folder rules for whoever sent it when there is one.
    init(safePath: SafePath, readOnly: Bool, policy: AccessPolicy? = nil) {
        self.safePath = safePath
        self.readOnly = readOnly
        self.policy = policy
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var decided = context
        decided.access = RequestAccess(
            paths: safePath, mayWrite: !readOnly, policy: policy, user: context.identity.user)
        return try await next(request, decided)
    }
}
