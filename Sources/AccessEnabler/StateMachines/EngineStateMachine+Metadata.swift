import Foundation

extension EngineStateMachine {
    /// `getMetadata`: static metadata (expiries as epoch milliseconds strings, the device
    /// id) and user metadata from the profile's attributes — from storage, with no network call.
    func getMetadata(_ query: MetadataQuery, arguments: MetadataArguments, call: CallID?, _ step: inout Step) {
        // Before any setRequestor, like every other call: CFG400, then an empty answer.
        if standing.state == .notSet, let problem = requestorProblem {
            step.deliver(.status(problem), to: call)
            step.deliver(.setMetadataStatus(nil, encrypted: false, key: query.key, arguments: arguments), to: call)
            return
        }
        let facts = step.facts
        let validProfile =
            standing.requestorID == nil
            ? nil : facts.currentProfile.flatMap { $0.isValid(at: facts.adobeNow) ? $0 : nil }
        let answer: (value: JSONValue?, encrypted: Bool)
        switch query {
        case .authentication:
            answer = (validProfile.map { .string(EpochMilliseconds.string($0.notAfter)) }, false)
        case .authorization(let resource):
            let token = resource.flatMap { facts.mediaTokens[$0] }
            answer = (validProfile == nil ? nil : token.map { .string(EpochMilliseconds.string($0.notAfter)) }, false)
        case .deviceID:
            answer = (.string(settings.deviceIdentifier), false)
        case .userMeta(let name):
            if let name, let profile = validProfile {
                if name == "tokenSource", let source = profile.tokenSource {
                    answer = (.string(source), false)
                } else {
                    let attribute = profile.attributes[name]
                    answer = (attribute.map { $0.value }, attribute?.encrypted ?? false)
                }
            } else {
                answer = (nil, false)
            }
        case .unknown(let opcode):
            let message = StatusSentences.unknownMetadataOpcode(opcode.map(String.init))
            step.deliver(.status(StatusCatalog.status(.n500, message: message)), to: call)
            answer = (nil, false)
        }
        step.deliver(
            .setMetadataStatus(answer.value, encrypted: answer.encrypted, key: query.key, arguments: arguments),
            to: call)
    }
}
