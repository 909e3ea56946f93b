public import BrowseyAPI

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension APIClient {
    /// `POST /api/login`: signs in on a server with accounts. Keep only the answer's token (in
    /// the saved server, ``Server/signedIn(_:)``), never the password.
    public func signIn(username: String, password: String) async throws(BrowseyClientError) -> LoginResponse {
        try await json(
            LoginResponse.self, "POST", "/api/login",
            body: LoginRequest(username: username, password: password))
    }

    /// `POST /api/logout`: ends the session this client's token opens.
    public func signOut() async throws(BrowseyClientError) {
        _ = try await send("POST", "/api/logout")
    }

    /// `GET /api/session`: who this client is signed in as, and what it may do at `path`.
    public func session(at path: String = "/") async throws(BrowseyClientError) -> SessionResponse {
        try await json(SessionResponse.self, "GET", "/api/session", query: [("path", path)])
    }
}

extension Server {
    /// This server with the session of `login`: its token kept for every request, and who
    /// signed in, to show.
    public func signedIn(_ login: LoginResponse) -> Server {
        var server = self
        server.token = login.token
        server.username = login.username
        return server
    }

    /// This server without a session.
    public func signedOut() -> Server {
        var server = self
        server.token = nil
        server.username = nil
        return server
    }
}

extension APIClient {
    /// `POST /api/share`: a link to one file or folder, until `expires`, behind `password`, or a
    /// file request into a folder (`upload`). The answer never holds the password.
    public func share(
        _ path: String, expires: Date? = nil, password: String? = nil, upload: Bool = false
    ) async throws(BrowseyClientError) -> ShareInfo {
        try await json(
            ShareInfo.self, "POST", "/api/share",
            body: ShareRequest(path: path, expires: expires, password: password, upload: upload ? true : nil))
    }

    /// `GET /api/shares`: this user's share links (an administrator's: everyone's).
    public func shares() async throws(BrowseyClientError) -> [ShareInfo] {
        try await json(SharesResponse.self, "GET", "/api/shares").shares
    }

    /// `POST /api/unshare`: revokes a share link.
    public func unshare(_ id: String) async throws(BrowseyClientError) {
        _ = try await send(
            "POST", "/api/unshare", headers: [("Content-Type", "application/json")],
            body: .bytes(Array(#"{"id":"\#(id.filter { $0.isHexDigit })"}"#.utf8)))
    }
}
