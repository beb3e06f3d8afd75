import Foundation

extension EntitlementEngine {
    /// `getSelectedProvider`: the MVPD of the profile that authenticates the user (judged as
    /// checkAuthentication judges it), or `nil`.
    func getSelectedProvider() async {
        let profile = await currentAuthentication().profile
        emit(.selectedProvider(profile.flatMap { mvpdsByID[$0.mvpd] }))
    }

    /// `getMetadata`: static metadata (expiries as epoch milliseconds strings, the device
    /// id) and user metadata from the profile's attributes.
    func getMetadata(_ query: MetadataQuery, arguments: MetadataArguments) async {
        let profile = requestorID.flatMap { currentProfile(requestor: $0) }
        let validProfile = profile.flatMap { $0.isValid(at: adobeNow) ? $0 : nil }
        switch query {
        case .authentication:
            emit(.setMetadataStatus(validProfile.map { .string(epochMilliseconds($0.notAfter)) }, encrypted: false, key: query.key, arguments: arguments))
        case .authorization(let resource):
            let token = resource.flatMap { resource in requestorID.flatMap { store.authorization(requestor: $0, resource: resource) } }
            let value: JSONValue? = validProfile == nil ? nil : token.map { .string(epochMilliseconds($0.notAfter)) }
            emit(.setMetadataStatus(value, encrypted: false, key: query.key, arguments: arguments))
        case .deviceID:
            emit(.setMetadataStatus(.string(store.deviceIdentifier), encrypted: false, key: query.key, arguments: arguments))
        case .userMeta(let name):
            guard let name, let profile = validProfile else {
                emit(.setMetadataStatus(nil, encrypted: false, key: query.key, arguments: arguments))
                return
            }
            if name == "tokenSource", let source = profile.tokenSource {
                emit(.setMetadataStatus(.string(source), encrypted: false, key: query.key, arguments: arguments))
                return
            }
            let attribute = profile.attributes[name]
            emit(.setMetadataStatus(attribute.map { $0.value }, encrypted: attribute?.encrypted ?? false, key: query.key, arguments: arguments))
        case .unknown(let opcode):
            emitStatus(StatusCatalog.status(.n500, message: "getMetadata needs METADATA_OPCODE_KEY set to METADATA_AUTHENTICATION, METADATA_AUTHORIZATION, METADATA_DEVICE_ID or METADATA_USER_META; got \(opcode.map(String.init) ?? "none")."))
            emit(.setMetadataStatus(nil, encrypted: false, key: query.key, arguments: arguments))
        }
    }

    func epochMilliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}
