/// CRC-32 (the polynomial of zip, gzip and PNG), eight bytes at a time ("slicing by 8").
struct CRC32 {
    private(set) var value: UInt32 = 0

    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[0][index] = crc
        }
        for index in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][index]
                tables[slice][index] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        Self.tables.withUnsafeBufferPointer { tables in
            let t0 = tables[0], t1 = tables[1], t2 = tables[2], t3 = tables[3]
            let t4 = tables[4], t5 = tables[5], t6 = tables[6], t7 = tables[7]
            t0.withUnsafeBufferPointer { t0 in
                t1.withUnsafeBufferPointer { t1 in
                    t2.withUnsafeBufferPointer { t2 in
                        t3.withUnsafeBufferPointer { t3 in
                            t4.withUnsafeBufferPointer { t4 in
                                t5.withUnsafeBufferPointer { t5 in
                                    t6.withUnsafeBufferPointer { t6 in
                                        t7.withUnsafeBufferPointer { t7 in
                                            var index = 0
                                            let count = bytes.count
                                            while index + 8 <= count {
                                                let low =
                                                    bytes.loadUnaligned(
                                                        fromByteOffset: index, as: UInt32.self
                                                    ).littleEndian ^ crc
                                                let high = bytes.loadUnaligned(
                                                    fromByteOffset: index + 4, as: UInt32.self
                                                ).littleEndian
                                                crc =
                                                    t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)]
                                                    ^ t5[Int((low >> 16) & 0xFF)]
                                                    ^ t4[Int(low >> 24)] ^ t3[Int(high & 0xFF)]
                                                    ^ t2[Int((high >> 8) & 0xFF)]
                                                    ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                                                index += 8
                                            }
                                            while index < count {
                                                crc =
                                                    t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                                                index += 1
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        value = ~crc
    }

    /// The CRC of `bytes` alone.
    static func of(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update($0) }
        return crc.value
    }
}
