/// The C callbacks of the four requests: each copies its arguments into a ``DNSReply`` and hands
/// it to the request's ``ReplyBox`` (the context pointer). They capture nothing, as C function
/// pointers must.
enum ReplyCallbacks {
    static let register: DNSServiceLibrary.RegisterReply = { _, _, error, name, _, _, context in
        guard let box = ReplyBox.from(context) else { return }
        if error != DNSService.noError { return box.deliver(.failure(error)) }
        box.deliver(.registered(name: name.map { String(cString: $0) } ?? ""))
    }

    static let browse: DNSServiceLibrary.BrowseReply = {
        _, flags, interface, error, name, type, domain, context in
        guard let box = ReplyBox.from(context) else { return }
        if error != DNSService.noError { return box.deliver(.failure(error)) }
        box.deliver(
            .browsed(
                flags: flags, interface: interface, name: name.map { String(cString: $0) } ?? "",
                type: type.map { String(cString: $0) } ?? "", domain: domain.map { String(cString: $0) } ?? ""
            ))
    }

    static let resolve: DNSServiceLibrary.ResolveReply = {
        _, _, interface, error, _, host, port, length, txt, context in
        guard let box = ReplyBox.from(context) else { return }
        if error != DNSService.noError { return box.deliver(.failure(error)) }
        let bytes = txt.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
        box.deliver(
            .resolved(
                interface: interface, host: host.map { String(cString: $0) } ?? "",
                port: UInt16(bigEndian: port),
                txt: bytes))
    }

    static let queryRecord: DNSServiceLibrary.QueryRecordReply = {
        _, flags, _, error, _, type, _, length, data, _, context in
        guard let box = ReplyBox.from(context) else { return }
        if error != DNSService.noError { return box.deliver(.failure(error)) }
        let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
        box.deliver(.record(flags: flags, type: type, data: bytes))
    }
}
