import Foundation

extension PreauthorizeRequest {
    /// Collects the parts of a ``PreauthorizeRequest``, as the legacy SDK's builder did.
    ///
    /// Each setter changes this builder and returns it, so calls chain; ``build()`` makes a
    /// new request from what was set so far each time it is called, and changes nothing.
    /// A builder is a reference, like the legacy one: `builder.setResources(resources: r)`
    /// without using the result still sets the resources.
    public final class Builder: @unchecked Sendable {
        private let lock = NSLock()
        private var resources: [String] = []
        private var disabledFeatures: Set<Feature> = []

        /// An empty builder: no resources, every feature on.
        public init() {}

        /// Sets the resources to decide on (replacing any set before); returns this builder.
        @discardableResult
        public func setResources(resources: [String]) -> Builder {
            lock.withLock { self.resources = resources }
            return self
        }

        /// Sets the features to turn off (replacing any set before); returns this builder.
        @discardableResult
        public func disableFeatures(features: Set<Feature>) -> Builder {
            lock.withLock { self.disabledFeatures = features }
            return self
        }

        /// A new request with the resources and features set so far.
        public func build() -> PreauthorizeRequest {
            lock.withLock { PreauthorizeRequest(resources: resources, disabledFeatures: disabledFeatures) }
        }
    }
}
