import Foundation

/// A rate as the screen shows it: `"72"`, or `"59.94"` with two decimals
/// where it is not whole, as the library's statistics panel beside it
/// writes them. (Traces write rates exactly; this is for reading.)
func rateText(_ rate: Double) -> String {
    rate == rate.rounded() ? "\(Int(rate))" : String(format: "%.2f", rate)
}

/// `"72 Hz"` or `"59.94 Hz"`.
func hzText(_ hz: Double) -> String {
    "\(rateText(hz)) Hz"
}
