/// How long a server may stay silent after a request's body was handed to the system: its
/// timeout, plus the time the system may still need to send what it holds.
///
/// A transport hands a body to the socket, whose send buffer (up to a few MiB) the kernel then
/// drains at the link's pace: on a slow uplink the server is still receiving, and cannot
/// answer yet, well after the last write returned. The allowance is that buffer (or the body,
/// if smaller) at the rate the upload went, so a large upload over a slow link is never cut
/// off, while a server that really stopped still times out.
public enum UploadSilence {
    /// The silence allowed after `sent` bytes went out in `elapsed`, with a send buffer of
    /// `sendBuffer` bytes: `timeout` plus the buffer's drain time at the observed rate.
    public static func allowance(
        timeout: Duration, sent: Int64, elapsed: Duration, sendBuffer: Int64 = 4 << 20
    ) -> Duration {
        guard sent > 0, elapsed > .zero else { return timeout }
        let held = Double(min(sent, max(sendBuffer, 0)))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let drain = held / (Double(sent) / seconds)
        return timeout + .milliseconds(Int64(drain * 1000))
    }
}
