/* json( ): a selector into a JSON text gives the value's text as it stands (a string's
 * without its quotes, escapes kept; an object's or array's from bracket to bracket); a name
 * not there, an index past the end, or text that is not JSON up to the value give none (""
 * here, DTrace's NULL). Cases after illumos's json(): the selector forms, the value kinds. */
#pragma D option quiet
#pragma D option strsize=256

BEGIN
{
	j = "{\"name\": \"srv\", \"pid\": 3, \"ok\": true, \"none\": null, \"load\": -0.25e+2,";
	j = strjoin(j, " \"tids\": [1, 2, {\"tid\": 7, \"st\": \"RECEIVE\"}], \"e\": \"a\\\"b\\u00e9\"}");
	printf("[%s]\n", json(j, "name"));
	printf("[%s]\n", json(j, "pid"));
	printf("[%s] [%s]\n", json(j, "ok"), json(j, "none"));
	printf("[%s]\n", json(j, "load"));
	printf("[%s]\n", json(j, "tids"));
	printf("[%s] [%s]\n", json(j, "tids[1]"), json(j, "tids.0"));
	printf("[%s]\n", json(j, "tids[2].st"));
	printf("[%s]\n", json(j, "tids[2]"));
	printf("[%s]\n", json(j, "e"));
	printf("[%s] [%s] [%s]\n", json(j, "tids[3]"), json(j, "nosuch"), json(j, "name.x"));
	printf("[%s] [%s]\n", json("[10, 20, 30]", "[2]"), json("[10, 20, 30]", "1"));
	printf("[%s]\n", json("[0x10]", "0"));
	printf("[%s] [%s]\n", json("{\"a\": 1", "a"), json("{\"a\": [1, 2}", "a"));
	printf("[%s]\n", json("[\"ok\", \"bad \\q\", 3]", "0"));
	printf("[%s]\n", json("[\"ok\", \"bad \\q\", 3]", "2"));
	exit(0);
}
