import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange for the simulated user agent, with redirects handed back instead of
/// followed (the agent follows them itself, to stop at the application's redirect URL).
enum HTTPPageLoader {
    private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private struct Outcome: Sendable {
        var status: Int
        var location: String?
        var body: Data
    }

    static func send(method: String, url: URL, body: [UInt8], contentType: String?, accept: String)
        async throws(SimulatedUserAgentError) -> (
            status: Int, location: String?, body: String
        )
    {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        request.setValue("PassSandbox SimulatedUserAgent", forHTTPHeaderField: "User-Agent")
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if !body.isEmpty { request.httpBody = Data(body) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<Outcome, SimulatedUserAgentError> = await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(.transport(error.localizedDescription)))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(
                        returning: .success(
                            Outcome(
                                status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"),
                                body: data ?? Data())))
                } else {
                    continuation.resume(returning: .failure(.transport("No HTTP response.")))
                }
            }.resume()
        }
        let outcome = try result.get()
        return (outcome.status, outcome.location, String(decoding: outcome.body, as: UTF8.self))
    }
}
