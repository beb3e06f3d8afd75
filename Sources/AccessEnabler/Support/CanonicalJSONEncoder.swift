import Foundation

/// Encodes a value as the canonical JSON of the SDK's own files: object keys sorted by their
/// UTF-8 bytes, no whitespace, slashes not escaped, dates as seconds since 1970 — byte for
/// byte what `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]` and
/// `.secondsSince1970`, which earlier builds used and whose files still verify.
///
/// Why not `JSONEncoder` itself: the store is encoded whole at every sign-in, and
/// `JSONEncoder` spent about 8,000 instructions per value on it (type checks by protocol
/// lookups, boxing every value before writing), 1.3 million for a new device's store. This
/// encoder builds a small tree of the values as the types' `encode(to:)` hand them over and
/// writes it once.
///
/// The rules, as `JSONEncoder` applies them: a `Date` is its seconds since 1970, a `URL` its
/// absolute string, `Data` its Base64; a `Double` or `Float` is its shortest description,
/// without a trailing `.0` (an infinite or NaN number is refused); `"`, `\` and the control
/// characters are escaped (`\b \t \n \f \r`, else `\u00xx`), everything else is written as
/// UTF-8; a key encoded twice keeps its last value.
enum CanonicalJSONEncoder {
    /// The canonical JSON of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        try node(for: value).write(into: &bytes)
        return Data(bytes)
    }

    /// The tree node of `value`: a scalar at once, or the container its `encode(to:)` fills.
    fileprivate static func node<T: Encodable>(for value: T) throws -> Node {
        // Type identity, not casts: casting every value to each special type is much of
        // what made `JSONEncoder` slow.
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == Date.self, let date = value as? Date { return try .number(date.timeIntervalSince1970) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        let slot = Slot()
        try value.encode(to: ValueEncoder(slot: slot))
        return slot.node ?? .object(ObjectBox())
    }

    /// A value of the tree; scalars are kept as they came and written at the end.
    fileprivate enum Node {
        case string(String)
        /// A number or a literal, already written out.
        case literal(String)
        case integer(Int64)
        case unsigned(UInt64)
        case bool(Bool)
        case null
        case object(ObjectBox)
        case array(ArrayBox)

        /// `value` as a JSON number: its shortest description without a trailing `.0`; an
        /// infinite or NaN number is refused.
        static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws -> Node {
            guard value.isFinite else {
                throw EncodingError.invalidValue(
                    value, EncodingError.Context(codingPath: [], debugDescription: "A number JSON cannot hold."))
            }
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            return .literal(text)
        }

        func write(into bytes: inout [UInt8]) {
            switch self {
            case .string(let text): CanonicalJSONEncoder.write(text, into: &bytes)
            case .literal(let text): bytes.append(contentsOf: text.utf8)
            case .integer(let value): bytes.append(contentsOf: value.description.utf8)
            case .unsigned(let value): bytes.append(contentsOf: value.description.utf8)
            case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
            case .null: bytes.append(contentsOf: "null".utf8)
            case .object(let box): box.write(into: &bytes)
            case .array(let box):
                bytes.append(UInt8(ascii: "["))
                for (index, element) in box.elements.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    element.write(into: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            }
        }
    }

    /// `text` as a JSON string: `"`, `\` and the control characters escaped (`\b \t \n
    /// \f \r`, else `\u00xx`), everything else as its UTF-8.
    fileprivate static func write(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An object's members as they were encoded.
    fileprivate final class ObjectBox {
        var entries: [(key: String, node: Node)] = []

        /// The members by key, sorted by their UTF-8 bytes; of a key encoded twice, the last.
        func write(into bytes: inout [UInt8]) {
            bytes.append(UInt8(ascii: "{"))
            let keys = entries.map(\.key)
            let order = keys.indices.sorted { left, right in
                switch CanonicalJSONEncoder.compare(keys[left], keys[right]) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: left < right
                }
            }
            var first = true
            for (position, index) in order.enumerated() {
                if position + 1 < order.count, entries[order[position + 1]].key == entries[index].key { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                CanonicalJSONEncoder.write(entries[index].key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                entries[index].node.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// How `left` and `right` order by their UTF-8 bytes.
    fileprivate static func compare(_ left: String, _ right: String) -> ComparisonResult {
        var (left, right) = (left, right)
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                if common > 0, let leftBase = leftBytes.baseAddress, let rightBase = rightBytes.baseAddress {
                    let order = memcmp(leftBase, rightBase, common)
                    if order != 0 { return order < 0 ? .orderedAscending : .orderedDescending }
                }
                if leftBytes.count == rightBytes.count { return .orderedSame }
                return leftBytes.count < rightBytes.count ? .orderedAscending : .orderedDescending
            }
        }
    }

    /// An array's elements as they were encoded.
    fileprivate final class ArrayBox {
        var elements: [Node] = []
    }

    /// Where one value's node goes once its `encode(to:)` has chosen a container.
    fileprivate final class Slot {
        var node: Node?

        func object() -> ObjectBox {
            if case .object(let box)? = node { return box }
            let box = ObjectBox()
            node = .object(box)
            return box
        }

        func array() -> ArrayBox {
            if case .array(let box)? = node { return box }
            let box = ArrayBox()
            node = .array(box)
            return box
        }
    }
}

// The containers a type's `encode(to:)` writes through. They keep no coding path (reading
// one gives `[]`): the SDK's records never ask for it, and building it for every value cost
// as much as the rest.
extension CanonicalJSONEncoder {
    fileprivate struct ValueEncoder: Encoder {
        let slot: Slot
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedContainer<Key>(box: slot.object()))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedContainer(box: slot.array()) }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(slot: slot) }
    }

    fileprivate struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: ObjectBox
        var codingPath: [any CodingKey] { [] }

        private func put(_ node: Node, _ key: Key) { box.entries.append((key.stringValue, node)) }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(try .number(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(try .number(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.unsigned(value), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            put(try CanonicalJSONEncoder.node(for: value), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = ObjectBox()
            put(.object(nested), key)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            put(.array(nested), key)
            return UnkeyedContainer(box: nested)
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

        private func superEncoder(named name: String) -> any Encoder {
            let slot = Slot()
            box.entries.append((name, .object(slot.object())))
            return ValueEncoder(slot: slot)
        }
    }

    fileprivate struct UnkeyedContainer: UnkeyedEncodingContainer {
        let box: ArrayBox
        var codingPath: [any CodingKey] { [] }
        var count: Int { box.elements.count }

        private func add(_ node: Node) { box.elements.append(node) }

        mutating func encodeNil() throws { add(.null) }
        mutating func encode(_ value: Bool) throws { add(.bool(value)) }
        mutating func encode(_ value: String) throws { add(.string(value)) }
        mutating func encode(_ value: Double) throws { add(try .number(value)) }
        mutating func encode(_ value: Float) throws { add(try .number(value)) }
        mutating func encode(_ value: Int) throws { add(.integer(Int64(value))) }
        mutating func encode(_ value: Int8) throws { add(.integer(Int64(value))) }
        mutating func encode(_ value: Int16) throws { add(.integer(Int64(value))) }
        mutating func encode(_ value: Int32) throws { add(.integer(Int64(value))) }
        mutating func encode(_ value: Int64) throws { add(.integer(value)) }
        mutating func encode(_ value: UInt) throws { add(.unsigned(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { add(.unsigned(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { add(.unsigned(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { add(.unsigned(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { add(.unsigned(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws { add(try CanonicalJSONEncoder.node(for: value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = ObjectBox()
            add(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            add(.array(nested))
            return UnkeyedContainer(box: nested)
        }

        mutating func superEncoder() -> any Encoder {
            let slot = Slot()
            add(.object(slot.object()))
            return ValueEncoder(slot: slot)
        }
    }

    fileprivate struct SingleValueContainer: SingleValueEncodingContainer {
        let slot: Slot
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { slot.node = .null }
        mutating func encode(_ value: Bool) throws { slot.node = .bool(value) }
        mutating func encode(_ value: String) throws { slot.node = .string(value) }
        mutating func encode(_ value: Double) throws { slot.node = try .number(value) }
        mutating func encode(_ value: Float) throws { slot.node = try .number(value) }
        mutating func encode(_ value: Int) throws { slot.node = .integer(Int64(value)) }
        mutating func encode(_ value: Int8) throws { slot.node = .integer(Int64(value)) }
        mutating func encode(_ value: Int16) throws { slot.node = .integer(Int64(value)) }
        mutating func encode(_ value: Int32) throws { slot.node = .integer(Int64(value)) }
        mutating func encode(_ value: Int64) throws { slot.node = .integer(value) }
        mutating func encode(_ value: UInt) throws { slot.node = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { slot.node = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt16) throws { slot.node = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt32) throws { slot.node = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { slot.node = .unsigned(value) }

        mutating func encode<T: Encodable>(_ value: T) throws { slot.node = try CanonicalJSONEncoder.node(for: value) }
    }
}
