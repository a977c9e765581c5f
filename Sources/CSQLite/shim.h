// The system SQLite 3 (apt: libsqlite3-dev, brew: sqlite); wrapped by XiangqiBook's SQLiteDatabase.
#include <sqlite3.h>
