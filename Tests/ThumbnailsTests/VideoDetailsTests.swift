import Testing

@testable import Thumbnails

/// ``VideoDetails`` as read from `ffprobe`'s output, which comes from a file in the user's folder.
@Suite("A video's details from ffprobe")
struct VideoDetailsTests {
    func parse(_ text: String) -> VideoDetails? {
        VideoDetails.parse(ffprobeOutput: Array(text.utf8))
    }

    @Test("width, height and duration are read; a quarter turn either way swaps the size")
    func readsWhatFfprobeSays() {
        #expect(
            parse("width=320\nheight=240\nduration=3.000000\n")
                == VideoDetails(duration: 3, width: 320, height: 240))
        #expect(
            parse("width=320\r\nheight=240\r\nrotation=-90\r\nduration=1.5\r\n")
                == VideoDetails(duration: 1.5, width: 240, height: 320))
        #expect(parse("width=1920\nheight=1080\nrotation=270\nduration=10\n")?.width == 1080)
        #expect(parse("width=1920\nheight=1080\nrotation=180\nduration=10\n")?.width == 1920)
    }

    @Test("what is not a sensible number is left out, and nothing at all is no details")
    func hostileValuesAreLeftOut() {
        #expect(parse("width=N/A\nheight=-4\nduration=nan\n") == nil)
        #expect(parse("duration=inf\nwidth=0\n") == nil)
        #expect(parse("duration=-1\nwidth=64\n") == VideoDetails(width: 64))
        #expect(parse("") == nil)
        #expect(parse("garbage\n=\n==\nwidth\n") == nil)
        #expect(parse("duration=N/A\nwidth=64\nheight=48\n") == VideoDetails(width: 64, height: 48))
    }
}
