import CJPEG
import CPNG

/// The system libraries the codecs are linked with, for logs and bug reports.
public enum SystemLibraries {
    /// The libjpeg API version the module was built against (62 for libjpeg-turbo's usual build).
    public static let jpegAPIVersion = Int(JPEG_LIB_VERSION)

    /// The libpng version loaded at run time, such as `1.6.39`.
    public static var pngVersion: String {
        let number = Int(png_access_version_number())
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
