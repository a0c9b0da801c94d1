// Package spec is space-api.md as code: the rules the service holds a
// skill's fields to, and the form in which skillsync compares them. It is a
// leaf (the standard library only), so that the client (package remote),
// the emulator (remote/remotetest) and the repository reader (fsrepo) all
// check the same rules without the reader importing anything that can send
// a request.
//
// The limits of the service are constants ([MaxActiveSkills],
// [MaxNameLen], [MaxInstructionsLen], ...), and each field rule a function
// returning a [*RuleError] that names the field ([CheckName],
// [CheckDescription], [CheckInstructions], [CheckFilePath], [CheckSpaceID],
// [CheckUUID], [CheckPage]); lengths are counted as the service counts them,
// in UTF-16 code units ([UTF16Len]). Instructions are compared in
// [Canonical] form and sent as [InstructionsToSend] gives them;
// descriptions are compared as [SameDescription] does. [Differ] is the one
// field-by-field comparison of two skills, built on those forms, that every
// part of skillsync uses to tell whether a skill changed.
package spec
