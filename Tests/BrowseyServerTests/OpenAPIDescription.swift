import Foundation
import Hummingbird
import HummingbirdTesting

/// The served OpenAPI document, read the way the tests need it: `$ref`s followed, the schema
/// of an answer found by path, method and status, and a JSON value held against a schema.
struct OpenAPIDescription {
    let document: JSONValue

    /// The document `/api/openapi.json` answers with (`headers` carry the token, if one is needed).
    static func served(
        by client: any TestClientProtocol, headers: HTTPFields = [:]
    ) async throws -> OpenAPIDescription {
        OpenAPIDescription(
            document: try JSONValue.parse(try await client.ask("/api/openapi.json", headers: headers).body))
    }

    /// Every `$ref` in the document, in no particular order.
    var references: [String] {
        var found: [String] = []
        func walk(_ node: JSONValue) {
            switch node {
            case .object(let members):
                if let reference = members["$ref"]?.text { found.append(reference) }
                members.values.forEach(walk)
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        walk(document)
        return found
    }

    /// What a local reference (`#/components/schemas/ListItem`) points at, if anything.
    func target(of reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(
                of: "~0", with: "~")
            if let elements = node?.elements {
                node = Int(key).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            } else {
                node = node?[key]
            }
        }
        return node
    }

    /// `node` with its `$ref` followed (repeatedly), or `node` itself when it has none.
    func resolved(_ node: JSONValue) -> JSONValue? {
        var node = node
        for _ in 0..<16 {
            guard let reference = node["$ref"]?.text else { return node }
            guard let next = target(of: reference) else { return nil }
            node = next
        }
        return nil
    }

    /// The JSON schema the description gives for the answer to `method path` with `status`.
    func answerSchema(_ method: String, _ path: String, status: Int) -> JSONValue? {
        guard let operation = document["paths"]?[path]?[method],
            let answer = operation["responses"]?[String(status)].flatMap(resolved),
            let schema = answer["content"]?["application/json"]?["schema"]
        else { return nil }
        return schema
    }

    /// Where `value` differs from `schema`: a type the schema does not allow, a key the schema
    /// does not name, a required key left out, a value outside an `enum`. Empty when it fits.
    func mismatches(of value: JSONValue, against schema: JSONValue, at location: String = "$") -> [String] {
        guard let schema = resolved(schema) else { return ["\(location): the schema's $ref leads nowhere"] }
        var found: [String] = []
        let allowed: Set<String>? =
            if let one = schema["type"]?.text { [one] } else {
                schema["type"]?.elements.map { Set($0.compactMap(\.text)) }
            }
        if let allowed, allowed.isDisjoint(with: value.schemaTypes) {
            found.append(
                "\(location): \(value.schemaTypes.sorted()) where the schema says \(allowed.sorted())")
        }
        if let choices = schema["enum"]?.elements, !choices.contains(value) {
            found.append("\(location): \(value) is not one of the schema's enum")
        }
        if let members = value.members, let properties = schema["properties"]?.members {
            for (key, member) in members {
                if let property = properties[key] {
                    found += mismatches(of: member, against: property, at: "\(location).\(key)")
                } else {
                    found.append("\(location).\(key): sent, but not a property in the schema")
                }
            }
            for key in schema["required"]?.elements?.compactMap(\.text) ?? [] where members[key] == nil {
                found.append("\(location).\(key): required by the schema, but not sent")
            }
        }
        if let elements = value.elements, let items = schema["items"] {
            for (index, element) in elements.enumerated() {
                found += mismatches(of: element, against: items, at: "\(location)[\(index)]")
            }
        }
        return found
    }
}
