import Foundation

extension AccessEnablerConfiguration: CustomReflectable {
    /// Every setting that says how the SDK behaves; the configured device identifier is shown
    /// as hidden, and code or objects the app supplies (the service token and platform
    /// identity providers, the transport, the partner framework, the clock, the diagnostics
    /// handler) by their type only — a `dump` never calls them or walks into what they hold.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "environment": environment, "platform": platform, "loginScreen": loginScreen,
                "providerChoice": providerChoice,
                "secondScreenPollInterval": secondScreenPollInterval,
                "preauthorizationBatchSize": preauthorizationBatchSize as Any,
                "deviceInfo": deviceInfo as Any, "deviceIdentifier": HiddenSecret(deviceIdentifier),
                "storageDirectory": storageDirectory,
                "partnerFramework": HiddenSecret.kind(of: partnerFramework),
                "serviceToken": HiddenSecret.kind(of: serviceToken),
                "platformIdentity": HiddenSecret.kind(of: platformIdentity), "redirectURL": redirectURL,
                "domainName": domainName,
                "requestTimeout": requestTimeout, "maximumResponseBodySize": maximumResponseBodySize,
                "partnerInteractionTimeout": partnerInteractionTimeout, "clock": HiddenSecret.kind(of: clock),
                "sleeper": HiddenSecret.kind(of: sleeper), "transport": HiddenSecret.kind(of: transport),
                "diagnostics": HiddenSecret.kind(of: diagnostics), "userAgent": userAgent,
                "allowsInsecureHTTP": allowsInsecureHTTP,
            ],
            displayStyle: .struct)
    }
}
