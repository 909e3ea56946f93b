import Hummingbird

extension APIError {
    /// 429 `slowDown` for a try made before its throttle's wait is over: "`what`: try again in
    /// N s", with `Retry-After` (whole seconds, rounded up, at least one).
    static func slowDown(_ what: String, wait: Duration) -> APIError {
        let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
        return APIError(
            .tooManyRequests, "\(what): try again in \(seconds) s", code: .slowDown,
            headers: [.retryAfter: String(seconds)])
    }
}
