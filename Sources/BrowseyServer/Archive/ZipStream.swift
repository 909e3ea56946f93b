import BrowseyAPI
import NIOCore

/// Writes a zip archive front to back, for streaming: no seeking, no temporary file.
///
/// Entries are stored (not compressed). Each entry's header goes out before its bytes with the
/// "data descriptor" flag, so the CRC and the sizes follow the bytes once they are known; the
/// central directory, kept in memory (one small record per entry), closes the archive. Names
/// are UTF-8 (flag bit 11). ZIP64 records are used where a size or an offset passes 4 GiB, or
/// the entries pass 65,535 — and for every entry when `forcesZip64` is set (tests).
struct ZipStream {
    private struct CentralRecord {
        let name: [UInt8]
        let isFolder: Bool
        let mode: UInt32
        let time: UInt16
        let date: UInt16
        let crc: UInt32
        let size: UInt64
        let offset: UInt64
        let zip64: Bool
    }

    private var records: [CentralRecord] = []
    /// Every entry name given so far (folders without their `/`), to keep names distinct.
    private var givenNames: Set<String> = []
    /// Bytes of the archive written so far.
    private(set) var offset: UInt64 = 0
    let forcesZip64: Bool

    init(forcesZip64: Bool = false) {
        self.forcesZip64 = forcesZip64
    }

    /// The state of an entry between its header and its descriptor.
    struct OpenEntry {
        fileprivate let name: [UInt8]
        fileprivate let mode: UInt32
        fileprivate let time: UInt16
        fileprivate let date: UInt16
        fileprivate let offset: UInt64
        fileprivate let zip64: Bool
        var crc = CRC32()
        var size: UInt64 = 0
    }

    /// The local header of a file of (about) `expectedSize` bytes; write it, then the bytes
    /// (through ``add(_:to:)``), then ``finishFile(_:into:)``. The name is made safe by
    /// ``ArchiveEntryName``, and numbered (`a (2).txt`) when an entry already has it.
    mutating func startFile(
        name: String, mode: UInt32, modifiedSeconds: Int64, expectedSize: UInt64,
        into buffer: inout ByteBuffer
    ) -> OpenEntry {
        let zip64 = forcesZip64 || expectedSize >= 0xFFFF_FFFF || offset >= 0xFFFF_FFFF
        let (time, date) = Self.dosTime(modifiedSeconds)
        let safe = ArchiveEntryName.safe(name)
        var unique = safe
        var number = 2
        while givenNames.contains(unique) {
            unique = ArchiveEntryName.numbered(safe, number)
            number += 1
        }
        givenNames.insert(unique)
        let entry = OpenEntry(
            name: Array(unique.utf8), mode: mode, time: time, date: date, offset: offset, zip64: zip64)
        writeLocalHeader(entry, isFolder: false, into: &buffer)
        return entry
    }

    /// Counts bytes of the current file (they are written by the caller, as they are).
    func add(_ bytes: UnsafeRawBufferPointer, to entry: inout OpenEntry) {
        entry.crc.update(bytes)
        entry.size += UInt64(bytes.count)
    }

    /// The data descriptor after a file's bytes.
    mutating func finishFile(_ entry: OpenEntry, into buffer: inout ByteBuffer) {
        offset += entry.size
        let start = buffer.writerIndex
        buffer.writeInteger(UInt32(0x0807_4B50), endianness: .little)
        buffer.writeInteger(entry.crc.value, endianness: .little)
        if entry.zip64 {
            buffer.writeInteger(entry.size, endianness: .little)
            buffer.writeInteger(entry.size, endianness: .little)
        } else {
            buffer.writeInteger(UInt32(entry.size), endianness: .little)
            buffer.writeInteger(UInt32(entry.size), endianness: .little)
        }
        offset += UInt64(buffer.writerIndex - start)
        records.append(
            CentralRecord(
                name: entry.name, isFolder: false, mode: entry.mode, time: entry.time, date: entry.date,
                crc: entry.crc.value, size: entry.size, offset: entry.offset,
                zip64: entry.zip64 || entry.offset >= 0xFFFF_FFFF))
    }

    /// A folder entry (`name/`, no bytes), so that empty folders survive. Names are made safe by
    /// ``ArchiveEntryName``; a folder whose safe name was given already is the same folder (its
    /// files join the other's).
    mutating func addFolder(name: String, mode: UInt32, modifiedSeconds: Int64, into buffer: inout ByteBuffer)
    {
        let (time, date) = Self.dosTime(modifiedSeconds)
        let safe = ArchiveEntryName.safe(name)
        guard givenNames.insert(safe).inserted else { return }
        let folderName = Array((safe + "/").utf8)
        let entry = OpenEntry(
            name: folderName, mode: mode, time: time, date: date, offset: offset,
            zip64: forcesZip64 || offset >= 0xFFFF_FFFF)
        writeLocalHeader(entry, isFolder: true, into: &buffer)
        records.append(
            CentralRecord(
                name: folderName, isFolder: true, mode: mode, time: time, date: date, crc: 0, size: 0,
                offset: entry.offset, zip64: entry.zip64))
    }

    private mutating func writeLocalHeader(_ entry: OpenEntry, isFolder: Bool, into buffer: inout ByteBuffer)
    {
        let start = buffer.writerIndex
        buffer.writeInteger(UInt32(0x0403_4B50), endianness: .little)
        buffer.writeInteger(UInt16(entry.zip64 ? 45 : 20), endianness: .little)  // version needed
        buffer.writeInteger(UInt16(isFolder ? 0x0800 : 0x0808), endianness: .little)  // UTF-8, descriptor
        buffer.writeInteger(UInt16(0), endianness: .little)  // stored
        buffer.writeInteger(entry.time, endianness: .little)
        buffer.writeInteger(entry.date, endianness: .little)
        buffer.writeInteger(UInt32(0), endianness: .little)  // CRC: in the descriptor
        let unknown: UInt32 = entry.zip64 ? 0xFFFF_FFFF : 0
        buffer.writeInteger(unknown, endianness: .little)
        buffer.writeInteger(unknown, endianness: .little)
        buffer.writeInteger(UInt16(entry.name.count), endianness: .little)
        buffer.writeInteger(UInt16(entry.zip64 ? 20 : 0), endianness: .little)
        buffer.writeBytes(entry.name)
        if entry.zip64 {
            buffer.writeInteger(UInt16(0x0001), endianness: .little)
            buffer.writeInteger(UInt16(16), endianness: .little)
            buffer.writeInteger(UInt64(0), endianness: .little)
            buffer.writeInteger(UInt64(0), endianness: .little)
        }
        offset += UInt64(buffer.writerIndex - start)
    }

    /// The central directory and the end records; the archive is complete after this.
    mutating func finish(into buffer: inout ByteBuffer) {
        let directoryStart = offset
        for record in records {
            let start = buffer.writerIndex
            let needsSizes = record.zip64
            let needsOffset = record.offset >= 0xFFFF_FFFF || forcesZip64
            var extra: [UInt64] = []
            if needsSizes { extra += [record.size, record.size] }
            if needsOffset { extra.append(record.offset) }
            buffer.writeInteger(UInt32(0x0201_4B50), endianness: .little)
            buffer.writeInteger(UInt16(0x0300 | 45), endianness: .little)  // made by: Unix, 4.5
            buffer.writeInteger(UInt16(record.zip64 || needsOffset ? 45 : 20), endianness: .little)
            buffer.writeInteger(UInt16(record.isFolder ? 0x0800 : 0x0808), endianness: .little)
            buffer.writeInteger(UInt16(0), endianness: .little)
            buffer.writeInteger(record.time, endianness: .little)
            buffer.writeInteger(record.date, endianness: .little)
            buffer.writeInteger(record.crc, endianness: .little)
            let size32: UInt32 = needsSizes ? 0xFFFF_FFFF : UInt32(record.size)
            buffer.writeInteger(size32, endianness: .little)
            buffer.writeInteger(size32, endianness: .little)
            buffer.writeInteger(UInt16(record.name.count), endianness: .little)
            buffer.writeInteger(UInt16(extra.isEmpty ? 0 : 4 + 8 * extra.count), endianness: .little)
            buffer.writeInteger(UInt16(0), endianness: .little)  // comment
            buffer.writeInteger(UInt16(0), endianness: .little)  // disk
            buffer.writeInteger(UInt16(0), endianness: .little)  // internal attributes
            let type: UInt32 = record.isFolder ? 0o040000 : 0o100000
            buffer.writeInteger(
                ((type | (record.mode & 0o7777)) << 16) | (record.isFolder ? 0x10 : 0), endianness: .little)
            buffer.writeInteger(
                needsOffset ? UInt32(0xFFFF_FFFF) : UInt32(record.offset), endianness: .little)
            buffer.writeBytes(record.name)
            if !extra.isEmpty {
                buffer.writeInteger(UInt16(0x0001), endianness: .little)
                buffer.writeInteger(UInt16(8 * extra.count), endianness: .little)
                for value in extra { buffer.writeInteger(value, endianness: .little) }
            }
            offset += UInt64(buffer.writerIndex - start)
        }
        let directorySize = offset - directoryStart
        let count = UInt64(records.count)
        let zip64End =
            forcesZip64 || count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        if zip64End {
            let endStart = offset
            buffer.writeInteger(UInt32(0x0606_4B50), endianness: .little)
            buffer.writeInteger(UInt64(44), endianness: .little)
            buffer.writeInteger(UInt16(0x0300 | 45), endianness: .little)
            buffer.writeInteger(UInt16(45), endianness: .little)
            buffer.writeInteger(UInt32(0), endianness: .little)
            buffer.writeInteger(UInt32(0), endianness: .little)
            buffer.writeInteger(count, endianness: .little)
            buffer.writeInteger(count, endianness: .little)
            buffer.writeInteger(directorySize, endianness: .little)
            buffer.writeInteger(directoryStart, endianness: .little)
            buffer.writeInteger(UInt32(0x0706_4B50), endianness: .little)  // locator
            buffer.writeInteger(UInt32(0), endianness: .little)
            buffer.writeInteger(endStart, endianness: .little)
            buffer.writeInteger(UInt32(1), endianness: .little)
            offset += 56 + 20
        }
        buffer.writeInteger(UInt32(0x0605_4B50), endianness: .little)
        buffer.writeInteger(UInt16(0), endianness: .little)
        buffer.writeInteger(UInt16(0), endianness: .little)
        buffer.writeInteger(UInt16(zip64End ? 0xFFFF : count), endianness: .little)
        buffer.writeInteger(UInt16(zip64End ? 0xFFFF : count), endianness: .little)
        buffer.writeInteger(zip64End ? UInt32(0xFFFF_FFFF) : UInt32(directorySize), endianness: .little)
        buffer.writeInteger(zip64End ? UInt32(0xFFFF_FFFF) : UInt32(directoryStart), endianness: .little)
        buffer.writeInteger(UInt16(0), endianness: .little)
        offset += 22
    }

    /// MS-DOS time and date (local time is what zip tools show; UTC is used here, as the server
    /// has no idea of the client's zone). Dates before 1980 are clamped.
    static func dosTime(_ seconds: Int64) -> (time: UInt16, date: UInt16) {
        let days = max(seconds, 315_532_800) / 86400
        let secondsOfDay = Int(max(seconds, 315_532_800) % 86400)
        let (year, month, day) = BrowseyDate.civilDate(daysSince1970: Int(days))
        let time = UInt16(
            (secondsOfDay / 3600) << 11 | ((secondsOfDay % 3600) / 60) << 5 | (secondsOfDay % 60) / 2)
        let date = UInt16(clamping: (min(year, 2107) - 1980) << 9 | month << 5 | day)
        return (time, date)
    }
}
