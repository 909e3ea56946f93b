import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer
@testable import Thumbnails

/// Videos and PDFs through the real helper programs (`ffmpeg`, `ffprobe`, `pdftoppm`, which
/// README's test command installs): posters over `/api/thumb`, and a video's duration and size
/// in `/api/view`.
@Suite("Video and PDF posters over HTTP")
struct VideoAndPDFPosterTests {
    static let tools = PosterTools.find()

    /// A served folder with generated clips (one stored a quarter-turned, as a phone held upright
    /// stores it), a generated one-page PDF, and a clip that is not a video at all.
    static func fixture() async throws -> ServerFixture {
        let ffmpeg = try #require(tools.ffmpeg, "ffmpeg is installed by README's test command")
        let fixture = try ServerFixture.make()
        try fixture.folder.file("clips/fake.mp4", "not a video")
        let clips = fixture.folder.path("clips")
        for arguments in [
            [
                "-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=10", "-pix_fmt", "yuv420p",
                "\(clips)/clip.mp4",
            ],
            ["-f", "lavfi", "-i", "testsrc=duration=2:size=160x90:rate=10", "\(clips)/clip.webm"],
            [
                "-i", "\(clips)/clip.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90",
                "\(clips)/upright.mp4",
            ],
        ] {
            let made = try await ExternalCommand.run(
                ffmpeg, ["-v", "error", "-y"] + arguments, timeout: .seconds(60))
            try #require(made.status == 0, "ffmpeg: \(made.output)")
        }
        try fixture.folder.file("papers/page.pdf", Self.onePagePDF())
        return fixture
    }

    /// A PDF of one 200 x 100 point page whose left half is red and right half white.
    static func onePagePDF() -> [UInt8] {
        let content = "1 0 0 rg 0 0 100 100 re f"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            text += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n"
        }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return Array(text.utf8)
    }

    func configuration(_ fixture: ServerFixture) -> ServerConfiguration {
        var configuration = fixture.configuration()
        configuration.posterTools = (Self.tools.ffmpeg, Self.tools.pdftoppm, Self.tools.ffprobe)
        return configuration
    }

    @Test("a video's poster is a JPEG frame of the clip in its size class, and a PDF's its first page")
    func posters() async throws {
        let fixture = try await Self.fixture()
        try #require(Self.tools.pdftoppm != nil, "poppler-utils is installed by README's test command")
        try await fixture.withClient(configuration(fixture)) { client in
            let listing = try await client.ask("/api/list?path=/clips").decode(ListResponse.self)
            #expect(listing.items.first { $0.name == "clip.mp4" }?.thumbnail == true)
            for (path, width, height) in [
                ("/clips/clip.mp4", 256, 192), ("/clips/clip.webm", 160, 90),
                ("/clips/upright.mp4", 192, 256),
            ] {
                let answer = try await client.ask("/api/thumb?path=\(path)&size=256")
                #expect(answer.status == .ok && answer.headers[.contentType] == "image/jpeg", "\(path)")
                let metadata = ImageMetadata.read(Array(answer.body))
                #expect(
                    metadata?.width == width && metadata?.height == height,
                    "\(path): \(String(describing: metadata)); a small clip is not made larger")
            }
            let page = try await client.ask("/api/thumb?path=/papers/page.pdf&size=256")
            #expect(page.status == .ok && page.headers[.contentType] == "image/jpeg")
            let image = try SystemCodecs.jpeg(Array(page.body), longest: 0, maximumPixels: 1 << 20)
            #expect(image.width == 256 && image.height == 128)
            let left = image.pixel(x: 32, y: 64), right = image.pixel(x: 224, y: 64)
            #expect(left.0 > 200 && left.1 < 60 && left.2 < 60, "the left half is red: \(left)")
            #expect(right.0 > 200 && right.1 > 200 && right.2 > 200, "the right half is white: \(right)")
            let fake = try await client.ask("/api/thumb?path=/clips/fake.mp4&size=256")
            #expect(fake.status == .unsupportedMediaType && fake.json["code"] != nil)
        }
    }

    @Test("/api/view gives a video's duration and its size as shown; a file that is no video has neither")
    func videoDetails() async throws {
        let fixture = try await Self.fixture()
        try #require(Self.tools.ffprobe != nil, "ffprobe comes with ffmpeg")
        try await fixture.withClient(configuration(fixture)) { client in
            let clip = try await client.ask("/api/view?path=/clips/clip.mp4").decode(ViewResponse.self)
            #expect(
                clip.type == .video && clip.video == ViewResponse.Video(duration: 3, width: 320, height: 240))
            let webm = try await client.ask("/api/view?path=/clips/clip.webm").decode(ViewResponse.self)
            #expect(webm.video == ViewResponse.Video(duration: 2, width: 160, height: 90))
            let upright = try await client.ask("/api/view?path=/clips/upright.mp4").decode(ViewResponse.self)
            #expect(upright.video?.width == 240 && upright.video?.height == 320, "a quarter turn swaps them")
            let fake = try await client.ask("/api/view?path=/clips/fake.mp4")
            #expect(
                fake.status == .ok && fake.json["type"] as? String == "video" && fake.json["video"] == nil)
        }
        // Without ffprobe the answer is as before: no `video`, nothing else different.
        var without = configuration(fixture)
        without.posterTools.ffprobe = nil
        try await fixture.withClient(without) { client in
            let clip = try await client.ask("/api/view?path=/clips/clip.mp4")
            #expect(clip.status == .ok && clip.json["video"] == nil && clip.json["url"] != nil)
        }
    }

    @Test("ffprobe runs once per version of a file, for a clip it can read and one it cannot")
    func probedOncePerVersion() async throws {
        let fixture = try await Self.fixture()
        let ffprobe = try #require(Self.tools.ffprobe, "ffprobe comes with ffmpeg")
        // The real ffprobe behind a script that counts its runs.
        let tools = try TemporaryFolder(prefix: "browsey-ffprobe")
        let runs = tools.path("runs")
        let counting = try tools.file(
            "ffprobe", "#!/bin/sh\necho run >> '\(runs)'\nexec '\(ffprobe)' \"$@\"\n", mode: 0o755)
        var configuration = configuration(fixture)
        configuration.posterTools.ffprobe = counting
        configuration.confinesPosterTools = false  // confined, the script could not write its count
        try await fixture.withClient(configuration) { client in
            for _ in 0..<3 {
                let clip = try await client.ask("/api/view?path=/clips/clip.mp4").decode(ViewResponse.self)
                #expect(clip.video?.duration == 3)
                let fake = try await client.ask("/api/view?path=/clips/fake.mp4")
                #expect(fake.status == .ok && fake.json["video"] == nil)
            }
            let counted = try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n").count
            #expect(counted == 2, "one run for each file, not one per request: \(counted)")
            try fixture.folder.file("clips/fake.mp4", "changed, still not a video")
            _ = try await client.ask("/api/view?path=/clips/fake.mp4")
            let after = try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n").count
            #expect(after == 3, "a new version is probed again")
        }
    }
}
