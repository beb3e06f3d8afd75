import Foundation

extension AccessEnabler: CustomReflectable {
    /// The configuration (whose own mirror hides what is secret) and nothing of the session:
    /// the software statement, the registered client, the access token, the profiles and
    /// media tokens stay out of `dump` and debuggers. The app reads the session through
    /// checkAuthentication and the other calls.
    ///
    /// Left out of the documentation's member list (the class's overview says what a
    /// debugger shows): a protocol's witness there would stand in a group of its own.
    @_documentation(visibility: internal)
    public var customMirror: Mirror {
        Mirror(
            self, children: ["configuration": configuration, "session": "not shown: ask checkAuthentication"],
            displayStyle: .class)
    }
}

extension MediaToken: CustomReflectable {
    /// The resource and the status; the serialized token is shown as hidden, as in
    /// ``description``. The app reads ``serializedToken`` itself to hand it to its player.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "resource": resource, "serializedToken": HiddenSecret(serializedToken), "status": status as Any,
            ], displayStyle: .struct)
    }
}
