import Foundation

/// Any JSON, decoded without losing what each value was: `JSONSerialization` hands back
/// booleans and numbers alike as `NSNumber`, which a check of wire types cannot tell apart.
enum JSONValue: Decodable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `data` as one JSON value.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The member `key` of an object; `nil` for a missing member or anything but an object.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The members, if this is an object.
    var members: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements, if this is an array.
    var elements: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The text, if this is a string.
    var text: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The JSON Schema types this value is an instance of (a whole number is both an
    /// `integer` and a `number`).
    var schemaTypes: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let value): value.rounded() == value ? ["integer", "number"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}
