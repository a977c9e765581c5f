import XiangqiCore

/// Finds the default book without configuration, wherever the engine is started from.
public enum BookLocator {
    /// The default book's file name.
    public static let defaultFileName = "xiangqi-book.sqlite"

    /// The default book: `$XIANGQI_BOOK` if set, else `books/NAME` or `share/xiangqi/NAME`
    /// beside the executable or up to four levels above it (see ``DataFileLocator``).
    public static func defaultBookPath(executable: String? = DataFileLocator.executablePath()) -> String? {
        DataFileLocator.find(defaultFileName, folder: "books", environment: "XIANGQI_BOOK", executable: executable)
    }

    /// The running executable's absolute path (symbolic links resolved), if the system says.
    public static func executablePath() -> String? { DataFileLocator.executablePath() }
}
