import Foundation

/// Greets whoever is browsing.
func greet(_ name: String) -> String { "Hello, \(name)!" }

print(greet("Browsey"))
