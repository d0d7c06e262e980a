// Over 250 lines: the message catalogue, every text in both languages; one
// place so server and console say the same words.
/**
 * Every message a rule or an answer can carry, in both languages. Thai texts are the spec's,
 * copied exactly; rules refer to messages by key so server and console show the same words.
 */
export const messages = {
  'username.required': { th: 'กรุณากรอกชื่อผู้ใช้', en: 'Please enter a username.' },
  'username.min': { th: 'ชื่อผู้ใช้ต้องมีอย่างน้อย 6 ตัวอักษร', en: 'Username must be at least 6 characters.' },
  'personalId.required': { th: 'กรุณากรอกเลขบัตรประชาชน', en: 'Please enter your national ID number.' },
  'personalId.length': { th: 'ต้องกรอกเลขบัตรประชาชน 13 หลัก', en: 'The national ID number must have 13 digits.' },
  'personalId.checksum': {
    th: 'เลขบัตรประชาชนไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง',
    en: 'This national ID number is not valid. Please check it.',
  },
  'digits.only': { th: 'กรุณากรอกเฉพาะตัวเลขเท่านั้น', en: 'Please enter digits only.' },
  'password.required': { th: 'กรุณากรอกรหัสผ่าน', en: 'Please enter a password.' },
  'password.min': { th: 'รหัสผ่านต้องมีอย่างน้อย 8 ตัวอักษร', en: 'Password must be at least 8 characters.' },
  'password.thai': { th: 'รหัสผ่านไม่ควรมีตัวอักษรภาษาไทย', en: 'Password should not contain Thai letters.' },
  'personalPhone.required': { th: 'กรุณากรอกเบอร์โทรศัพท์', en: 'Please enter a phone number.' },
  'personalPhone.length': { th: 'เบอร์โทรศัพท์ต้องมี 10 หลัก', en: 'The phone number must have 10 digits.' },
  'personalEmail.required': { th: 'กรุณากรอกอีเมล์', en: 'Please enter an e-mail address.' },
  'personalEmail.invalid': { th: 'กรุณากรอกอีเมล์ที่ถูกต้อง', en: 'Please enter a valid e-mail address.' },
  'terms.required': {
    th: 'กรุณายอมรับข้อตกลงและนโยบายความเป็นส่วนตัว',
    en: 'Please accept the terms and the privacy policy.',
  },
  'title.required': { th: 'กรุณาเลือกคำนำหน้า', en: 'Please choose a title.' },
  'fullName.required': { th: 'กรุณากรอกชื่อ-นามสกุล', en: 'Please enter the full name.' },
  'address.required': { th: 'กรุณากรอกที่อยู่', en: 'Please enter the address.' },
  'province.required': { th: 'กรุณาเลือกจังหวัด', en: 'Please choose a province.' },
  'district.required': { th: 'กรุณาเลือกอำเภอ/เขต', en: 'Please choose a district.' },
  'subdistrict.required': { th: 'กรุณาเลือกตำบล/แขวง', en: 'Please choose a subdistrict.' },
  'companyName.required': { th: 'กรุณากรอกชื่อบริษัท', en: 'Please enter the company name.' },
  'companyTaxId.required': { th: 'กรุณากรอกเลขประจำตัวผู้เสียภาษี', en: 'Please enter the tax ID.' },
  'companyTaxId.length': { th: 'เลขประจำตัวผู้เสียภาษีต้องมี 13 หลัก', en: 'The tax ID must have 13 digits.' },
  'companyTaxId.checksum': {
    th: 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง',
    en: 'This tax ID is not valid. Please check it.',
  },
  'latitude.required': { th: 'กรุณากรอกละติจูด', en: 'Please enter the latitude.' },
  'latitude.invalid': { th: 'ละติจูดต้องเป็นตัวเลขระหว่าง -90 ถึง 90', en: 'Latitude must be a number from -90 to 90.' },
  'longitude.required': { th: 'กรุณากรอกลองจิจูด', en: 'Please enter the longitude.' },
  'longitude.invalid': {
    th: 'ลองจิจูดต้องเป็นตัวเลขระหว่าง -180 ถึง 180',
    en: 'Longitude must be a number from -180 to 180.',
  },
  'option.invalid': { th: 'กรุณาเลือกจากตัวเลือกที่มี', en: 'Please choose one of the options.' },
  'text.tooLong': { th: 'ข้อความยาวเกินกำหนด', en: 'This text is too long.' },
  'text.invalidCharacters': {
    th: 'ข้อความมีอักขระที่ไม่สามารถใช้ได้ กรุณาลบออก',
    en: 'This text contains characters that cannot be used. Please remove them.',
  },
  'text.singleLine': { th: 'กรุณากรอกข้อความในบรรทัดเดียว', en: 'Please keep this text on one line.' },
  'value.invalid': { th: 'ข้อมูลไม่ถูกต้อง', en: 'This value is not valid.' },
  'status.invalid': { th: 'สถานะต้องเป็น approved หรือ rejected', en: 'Status must be approved or rejected.' },

  'duplicate.error': { th: 'ข้อมูลซ้ำกับในระบบ', en: 'This information is already in the system.' },
  'duplicate.username': { th: 'ชื่อผู้ใช้นี้ถูกใช้งานแล้ว', en: 'This username is already in use.' },
  'duplicate.personalId': { th: 'เลขบัตรประชาชนนี้ถูกใช้งานแล้ว', en: 'This national ID number is already in use.' },
  'duplicate.personalPhone': { th: 'เบอร์โทรศัพท์นี้ถูกใช้งานแล้ว', en: 'This phone number is already in use.' },
  'duplicate.personalEmail': { th: 'อีเมลนี้ถูกใช้งานแล้ว', en: 'This e-mail address is already in use.' },
  'duplicate.companyTaxId': { th: 'เลขประจำตัวผู้เสียภาษีนี้ถูกใช้งานแล้ว', en: 'This tax ID is already in use.' },
  'duplicate.companyEmail': { th: 'อีเมลบริษัทนี้ถูกใช้งานแล้ว', en: 'This company e-mail is already in use.' },

  'login.required': { th: 'กรุณากรอกชื่อผู้ใช้และรหัสผ่าน', en: 'Please enter username and password.' },
  'login.failed': { th: 'ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง', en: 'Incorrect username or password.' },
  'login.success': { th: 'เข้าสู่ระบบสำเร็จ', en: 'Signed in successfully.' },
  'login.pending': {
    th: 'บัญชีของคุณอยู่ในสถานะรอยืนยัน กรุณารอการยืนยันจากเจ้าหน้าที่',
    en: 'Your account is awaiting confirmation. Please wait for staff to confirm it.',
  },
  'login.rejected': {
    th: 'บัญชีของคุณอยู่ในสถานะไม่ยืนยัน กรุณาติดต่อเจ้าหน้าที่',
    en: 'Your account was not confirmed. Please contact staff.',
  },
  'login.tooMany': {
    th: 'เข้าสู่ระบบไม่สำเร็จหลายครั้งเกินไป กรุณารอสักครู่แล้วลองใหม่',
    en: 'Too many failed sign-in attempts. Please wait a while and try again.',
  },
  'register.success': { th: 'สมัครสมาชิกสำเร็จ!', en: 'Registration successful!' },
  'employee.created': { th: 'สร้างบัญชีสมาชิกเรียบร้อยแล้ว', en: 'Member account created.' },
  'register.failed': { th: 'สมัครสมาชิกไม่สำเร็จ', en: 'Registration failed.' },
  'register.unavailable': { th: 'ไม่สามารถสมัครสมาชิกได้ในขณะนี้', en: 'Cannot register at this time.' },
  'erasure.done': {
    th: 'ลบข้อมูลส่วนบุคคลเรียบร้อยแล้ว',
    en: 'Personal data erased.',
  },
  'registration.statusChanged': { th: 'อัปเดตสถานะเรียบร้อยแล้ว', en: 'Registration status updated.' },
  'registration.deleted': { th: 'ลบข้อมูลการสมัครเรียบร้อยแล้ว', en: 'Registration deleted.' },
  'registration.notFound': { th: 'ไม่พบข้อมูลการสมัคร', en: 'Registration not found.' },
  'registration.alreadyInStatus': {
    th: 'การสมัครนี้อยู่ในสถานะนี้อยู่แล้ว',
    en: 'This registration already has that status.',
  },
  'profile.required': { th: 'กรุณากรอกชื่อ-นามสกุล อีเมล และเบอร์โทรศัพท์', en: 'Full Name, Email, and Phone are required.' },
  'profile.emailInvalid': { th: 'กรุณากรอกอีเมล์ที่ถูกต้อง', en: 'Please enter a valid email address.' },
  'profile.phoneDigits': { th: 'เบอร์โทรศัพท์ต้องเป็นตัวเลขเท่านั้น', en: 'Phone number should contain only digits.' },
  'profile.updated': { th: 'บันทึกข้อมูลเรียบร้อยแล้ว', en: 'Profile updated.' },
  'password.allRequired': { th: 'กรุณากรอกรหัสผ่านให้ครบทุกช่อง', en: 'All password fields are required.' },
  'password.mismatch': {
    th: 'รหัสผ่านใหม่และการยืนยันรหัสผ่านไม่ตรงกัน',
    en: 'New password and confirm password do not match.',
  },
  'password.newMin': { th: 'รหัสผ่านใหม่ต้องมีอย่างน้อย 6 ตัวอักษร', en: 'New password must be at least 6 characters long.' },
  'password.currentWrong': {
    th: 'เปลี่ยนรหัสผ่านไม่สำเร็จ กรุณาตรวจสอบรหัสผ่านปัจจุบัน',
    en: 'Failed to update password. Please check your current password.',
  },
  'passwordLink.invalid': {
    th: 'ลิงก์ตั้งรหัสผ่านนี้ใช้ไม่ได้ อาจหมดอายุหรือถูกใช้ไปแล้ว กรุณาขอลิงก์ใหม่จากผู้ดูแลระบบ',
    en: 'This password link does not work: it may have expired or been used. Ask an administrator for a new one.',
  },
  'passwordLink.set': { th: 'ตั้งรหัสผ่านเรียบร้อยแล้ว เข้าสู่ระบบได้เลย', en: 'Your password is set. You can sign in now.' },
  'passwordLink.sent': { th: 'ส่งลิงก์ตั้งรหัสผ่านแล้ว', en: 'The password link was sent.' },
  'passwordLink.kept': {
    th: 'เก็บลิงก์ตั้งรหัสผ่านไว้ในกล่องขาออกแล้ว (ยังไม่ได้ตั้งค่าเซิร์ฟเวอร์อีเมล)',
    en: 'The password link was kept in the outbox (no mail server is set up).',
  },
  'passwordLink.noEmail': {
    th: 'บัญชีนี้ไม่มีอีเมล จึงส่งลิงก์ไม่ได้',
    en: 'This account has no e-mail address to send the link to.',
  },
  'passwordLink.subject': { th: 'ตั้งรหัสผ่านสำหรับพอร์ทัลหลักสูตร', en: 'Set your password for the course portal' },
  'password.changed': { th: 'เปลี่ยนรหัสผ่านเรียบร้อยแล้ว', en: 'Password updated.' },
  'image.required': { th: 'กรุณาเลือกรูปภาพ', en: 'Please choose an image.' },
  'image.tooLarge': { th: 'รูปภาพต้องมีขนาดไม่เกิน 2 MB', en: 'The image must be 2 MB or smaller.' },
  'image.invalid': {
    th: 'กรุณาเลือกไฟล์รูปภาพ (JPEG, PNG, WebP หรือ GIF)',
    en: 'Please choose a JPEG, PNG, WebP or GIF image.',
  },
  'image.uploaded': { th: 'อัปโหลดรูปภาพเรียบร้อยแล้ว', en: 'Image uploaded.' },
  'profile.notFound': { th: 'ไม่พบข้อมูลผู้ใช้', en: 'User not found.' },
  'profile.loaded': { th: 'โหลดข้อมูลผู้ใช้สำเร็จ', en: 'Profile loaded.' },

  'course.topicRequired': { th: 'กรุณากรอกหัวข้อหลักสูตร', en: 'Please enter the course topic.' },
  'course.topicTooLong': { th: 'หัวข้อหลักสูตรต้องไม่เกิน 100 ตัวอักษร', en: 'The topic can have at most 100 characters.' },
  'course.descriptionRequired': { th: 'กรุณากรอกรายละเอียดหลักสูตร', en: 'Please enter the course description.' },
  'course.descriptionTooLong': {
    th: 'รายละเอียดหลักสูตรต้องไม่เกิน 1000 ตัวอักษร',
    en: 'The description can have at most 1000 characters.',
  },
  'course.maxPeopleInvalid': {
    th: 'จำนวนผู้เข้าร่วมสูงสุดต้องเป็นจำนวนเต็มตั้งแต่ 0 (0 คือไม่จำกัด)',
    en: 'Max participants must be a whole number, 0 or more (0 means unlimited).',
  },
  'course.statusInvalid': { th: 'สถานะต้องเป็น public หรือ private', en: 'Status must be public or private.' },
  'course.created': { th: 'สร้างหลักสูตรเรียบร้อยแล้ว', en: 'Course created successfully!' },
  'course.updated': { th: 'แก้ไขหลักสูตรเรียบร้อยแล้ว', en: 'Course updated successfully!' },
  'course.statusChanged': { th: 'เปลี่ยนสถานะหลักสูตรเรียบร้อยแล้ว', en: 'Course status updated.' },
  'course.deleted': { th: 'ลบหลักสูตรเรียบร้อยแล้ว', en: 'The course has been deleted.' },
  'course.imageTooLarge': { th: 'ขนาดรูปภาพต้องไม่เกิน 10MB', en: 'Image size cannot exceed 10MB.' },
  'attendance.userIdRequired': {
    th: 'ไม่มีรหัสผู้ใช้ให้สแกน กรุณาสแกน QR code หรือกรอกด้วยตนเอง',
    en: 'No User ID to scan. Please scan a QR code or enter manually.',
  },
  'attendance.accepted': { th: 'บันทึกการเข้าเรียนแล้ว', en: 'Attendance recorded.' },
  'attendance.duplicate': { th: 'สแกนแล้วในรอบนี้', en: 'Already scanned in this round.' },
  'attendance.roundNotActive': {
    th: 'รอบนี้ไม่ได้เปิดให้สแกนในขณะนี้',
    en: 'This round is not open for scanning at this time.',
  },
  'attendance.notApproved': {
    th: 'บัญชีของสมาชิกนี้ยังไม่ได้รับการอนุมัติ',
    en: 'This member’s account is not approved.',
  },
  'attendance.unknownMember': { th: 'ไม่พบสมาชิกที่ตรงกับรหัสนี้', en: 'No member matches this code or ID.' },
  'attendance.profileQr': {
    th: 'นี่คือ QR โปรไฟล์ ไม่ใช่บัตรเข้าเรียน: กรุณาเปิดบัตรเข้าเรียนของคุณ',
    en: 'This is a profile QR, not an attendance pass: open your pass.',
  },
  'attendance.codeExpired': {
    th: 'บัตรนี้หมดอายุแล้ว กรุณาให้สมาชิกเปิดบัตรใหม่อีกครั้ง',
    en: 'This pass has expired. Ask the member to open their pass again.',
  },
  'attendance.passRequired': {
    th: 'กรุณาสแกนบัตรเข้าเรียนของสมาชิก รหัสสมาชิกใช้ได้เมื่อพิมพ์เท่านั้น',
    en: 'Scan the member’s attendance pass; an ID is accepted only when typed.',
  },
  'attendance.roomCodeExpired': {
    th: 'รหัสห้องนี้หมดอายุแล้ว กรุณาสแกนรหัสที่แสดงบนจออยู่ตอนนี้',
    en: 'This room code has expired: scan the code on the screen now.',
  },
  'attendance.locationRequired': {
    th: 'หลักสูตรนี้ต้องทราบตำแหน่งของคุณ กรุณาอนุญาตให้เข้าถึงตำแหน่งแล้วลองอีกครั้ง',
    en: 'This course needs your location: allow it and try again.',
  },
  'attendance.tooFar': {
    th: 'คุณอยู่ไกลจากสถานที่เรียนเกินไป',
    en: 'You are too far from where the class is held.',
  },
  'attendance.deviceUsed': {
    th: 'เครื่องนี้เช็กอินให้สมาชิกอีกคนในรอบนี้แล้ว',
    en: 'This device has already checked in another member in this round.',
  },
  'attendance.notEnrolled': {
    th: 'คุณยังไม่ได้ลงทะเบียนหลักสูตรส่วนตัวนี้',
    en: 'You are not enrolled in this private course.',
  },
  'attendance.deviceRequired': {
    th: 'ไม่ทราบรหัสเครื่อง กรุณาเปิดหน้านี้ใหม่',
    en: 'This device has no id: open the page again.',
  },
  'attendance.selfAccepted': { th: 'เช็กอินเรียบร้อย', en: 'You are checked in.' },
  'attendance.courseFull': {
    th: 'หลักสูตรเต็มแล้ว สมาชิกนี้ยังไม่ได้ลงทะเบียนและไม่มีที่ว่าง',
    en: 'The course is full: this member is not enrolled and no place is left.',
  },
  'attendance.nothingToVoid': { th: 'ไม่มีการสแกนที่จะยกเลิก', en: 'There is no accepted scan to void.' },
  'attendance.voided': { th: 'ยกเลิกการสแกนแล้ว', en: 'The scan was voided.' },
  'attendance.voidReasonRequired': { th: 'กรุณาระบุเหตุผล', en: 'Please give a reason.' },
  'attendance.deviceTimeInvalid': { th: 'เวลาของอุปกรณ์ไม่ถูกต้อง', en: 'The device time is not a valid time.' },
  'courses.loaded': { th: 'โหลดข้อมูลหลักสูตรสำเร็จ', en: 'Courses loaded.' },
  'report.loaded': { th: 'โหลดรายงานสำเร็จ', en: 'Report loaded.' },
  'report.momentInvalid': { th: 'กรุณาระบุวันและเวลาที่ถูกต้อง', en: 'Please give a valid date and time.' },
  'report.timeZone': { th: 'ไม่รู้จักเขตเวลานี้', en: 'This time zone is not known.' },
  'report.page': { th: 'หมายเลขหน้าไม่ถูกต้อง', en: 'The page number is not valid.' },
  'report.sort': { th: 'ไม่รู้จักฟิลด์ที่ใช้เรียงลำดับนี้', en: 'This sort field is not known.' },
  'report.order': { th: 'ลำดับต้องเป็น asc หรือ desc', en: 'The order must be asc or desc.' },
  'report.status': {
    th: 'สถานะต้องเป็น pending, approved หรือ rejected',
    en: 'The status must be pending, approved or rejected.',
  },
  'audit.outcome': {
    th: 'ผลลัพธ์ต้องเป็น accepted, refused หรือ voided',
    en: 'The outcome must be accepted, refused or voided.',
  },
  'report.days': { th: 'จำนวนวันต้องอยู่ระหว่าง 1 ถึง 366', en: 'The number of days must be from 1 to 366.' },
  'course.notFound': { th: 'ไม่พบหลักสูตร', en: 'Course not found.' },
  'course.notCreator': {
    th: 'เฉพาะผู้สร้างหลักสูตรหรือผู้ดูแลระบบเท่านั้นที่แก้ไขได้',
    en: 'Only the course creator or an administrator can change this course.',
  },
  'course.notScanner': {
    th: 'เฉพาะผู้สร้างหลักสูตร ผู้ช่วยสแกนของหลักสูตร หรือผู้ดูแลระบบเท่านั้นที่สแกนในรอบนี้ได้',
    en: 'Only the course creator, its scanning assistants or an administrator can scan in this round.',
  },
  'assistant.notEligible': {
    th: 'ผู้ช่วยสแกนต้องเป็นสมาชิกหรือพาร์ทเนอร์ที่ได้รับการอนุมัติแล้ว',
    en: 'A scanning assistant must be an approved member or partner.',
  },
  'assistant.isCreator': {
    th: 'ผู้สร้างหลักสูตรสแกนได้อยู่แล้ว ไม่ต้องเพิ่มเป็นผู้ช่วย',
    en: 'The course creator can already scan; no need to add them as an assistant.',
  },
  'assistant.notFound': {
    th: 'ไม่พบผู้ใช้ที่มีชื่อผู้ใช้นี้',
    en: 'No user has this username.',
  },
  'assistant.added': { th: 'เพิ่มผู้ช่วยสแกนแล้ว', en: 'Scanning assistant added.' },
  'assistant.removed': { th: 'นำผู้ช่วยสแกนออกแล้ว', en: 'Scanning assistant removed.' },
  'course.notPublic': { th: 'หลักสูตรนี้ยังไม่เปิดรับสมัคร', en: 'This course is not open for enrolment.' },
  'course.belowEnrolled': {
    th: 'จำนวนผู้เข้าร่วมสูงสุดต้องไม่น้อยกว่าจำนวนผู้ที่ลงทะเบียนแล้ว',
    en: 'Max participants cannot be below the number already enrolled.',
  },
  'course.full': { th: 'หลักสูตรนี้เต็มแล้ว', en: 'This course is full.' },
  'selfCheckIn.latitude': { th: 'ละติจูดต้องอยู่ระหว่าง -90 ถึง 90', en: 'The latitude must be from -90 to 90.' },
  'selfCheckIn.longitude': { th: 'ลองจิจูดต้องอยู่ระหว่าง -180 ถึง 180', en: 'The longitude must be from -180 to 180.' },
  'selfCheckIn.radius': {
    th: 'รัศมีต้องเป็นจำนวนเต็ม 10 ถึง 5000 เมตร',
    en: 'The radius must be a whole number of metres from 10 to 5000.',
  },
  'selfCheckIn.onePerDevice': {
    th: 'กรุณาระบุว่าจำกัดหนึ่งคนต่อเครื่องหรือไม่',
    en: 'Say whether one device checks in one member.',
  },
  'selfCheckIn.saved': { th: 'บันทึกการเช็กอินด้วยตนเองแล้ว', en: 'Self check-in settings saved.' },
  'course.enrolled': { th: 'ลงทะเบียนหลักสูตรเรียบร้อยแล้ว', en: 'You are enrolled.' },
  'course.unenrolled': { th: 'ยกเลิกการลงทะเบียนเรียบร้อยแล้ว', en: 'You have left the course.' },
  'course.notEnrolled': { th: 'คุณยังไม่ได้ลงทะเบียนหลักสูตรนี้', en: 'You are not enrolled in this course.' },
  'round.startRequired': { th: 'กรุณาระบุเวลาเริ่มรอบ', en: 'Please give the round’s start time.' },
  'round.endRequired': { th: 'กรุณาระบุเวลาสิ้นสุดรอบ', en: 'Please give the round’s end time.' },
  'round.endBeforeStart': { th: 'เวลาสิ้นสุดต้องหลังเวลาเริ่ม', en: 'The round must end after it starts.' },
  'round.overlaps': { th: 'ช่วงเวลานี้ซ้อนกับรอบอื่นของหลักสูตร', en: 'This time overlaps another round of the course.' },
  'round.alreadyStarted': {
    th: 'รอบเรียนนี้เริ่มแล้ว จึงยกเลิกหรือเปลี่ยนเวลาไม่ได้ หากบันทึกการเข้าเรียนผิด ให้ยกเลิกการสแกนนั้นพร้อมระบุเหตุผล',
    en: 'This round has already started, so it cannot be cancelled or moved. To correct its attendance, void the wrong scans with a reason.',
  },
  'round.notFound': { th: 'ไม่พบรอบเรียน', en: 'Round not found.' },
  'round.scheduled': { th: 'เพิ่มรอบเรียนเรียบร้อยแล้ว', en: 'Round scheduled.' },
  'round.rescheduled': { th: 'เปลี่ยนเวลารอบเรียนเรียบร้อยแล้ว', en: 'Round rescheduled.' },
  'round.cancelled': { th: 'ยกเลิกรอบเรียนเรียบร้อยแล้ว', en: 'Round cancelled.' },

  'auth.required': {
    th: 'กรุณาเข้าสู่ระบบ',
    en: 'User not logged in or session expired. Please log in again.',
  },
  'auth.forbidden': {
    th: 'คุณไม่มีสิทธิ์เข้าถึงส่วนนี้',
    en: 'You do not have the necessary permissions to view this page. Please log in with an administrator account.',
  },
  // Why a signed-in person was refused (403): their role, or whose the thing is. 'auth.forbidden'
  // is the spec's Access Denied text, for the console's page of that name.
  'auth.roleRefused': { th: 'บทบาทของบัญชีคุณไม่มีสิทธิ์ทำรายการนี้', en: 'Your account’s role does not allow this.' },
  'auth.ownerOrAdmin': {
    th: 'ทำได้เฉพาะเจ้าของบัญชีนี้หรือผู้ดูแลระบบ',
    en: 'Only the owner of this account or an administrator can do this.',
  },
  'auth.ownerOnly': { th: 'ทำได้เฉพาะเจ้าของบัญชีนี้', en: 'Only the owner of this account can do this.' },
  'course.staffOnly': {
    th: 'สร้างหลักสูตรได้เฉพาะพาร์ทเนอร์และผู้ดูแลระบบ',
    en: 'Only partners and administrators can create courses.',
  },
  'enrol.membersOnly': { th: 'ลงทะเบียนเรียนได้เฉพาะสมาชิก', en: 'Only members can enrol in courses.' },
  'request.crossSite': {
    th: 'คำขอนี้มาจากเว็บไซต์อื่น จึงไม่ได้รับอนุญาต',
    en: 'This request came from another site, so it was refused.',
  },
  'upload.unreadable': {
    th: 'อ่านไฟล์ที่อัปโหลดไม่ได้ กรุณาเลือกไฟล์อีกครั้ง',
    en: 'The upload could not be read. Please choose the file again.',
  },
  'request.malformed': { th: 'รูปแบบข้อมูลที่ส่งมาไม่ถูกต้อง', en: 'The request body is not valid JSON.' },
  'request.invalid': { th: 'ข้อมูลไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง', en: 'Some fields are not valid. Please check them.' },
  'request.idempotencyReused': {
    th: 'คีย์ Idempotency-Key นี้ถูกใช้กับคำขออื่นแล้ว',
    en: 'This Idempotency-Key was already used for a different request.',
  },
  'request.conflict': {
    th: 'ข้อมูลถูกแก้ไขพร้อมกัน กรุณาลองอีกครั้ง',
    en: 'The data was changed at the same time by someone else. Please try again.',
  },
  'contact.nameRequired': { th: 'ชื่อผู้ติดต่อจำเป็นต้องกรอก', en: 'Please enter your name.' },
  'contact.nameTooLong': { th: 'ชื่อต้องไม่เกิน 100 ตัวอักษร', en: 'The name must be at most 100 characters.' },
  'contact.emailRequired': { th: 'อีเมลจำเป็นต้องกรอก', en: 'Please enter your e-mail address.' },
  'contact.emailInvalid': { th: 'รูปแบบอีเมลไม่ถูกต้อง', en: 'The e-mail address is not valid.' },
  'contact.subjectTooLong': { th: 'หัวข้อต้องไม่เกิน 100 ตัวอักษร', en: 'The subject must be at most 100 characters.' },
  'contact.messageRequired': { th: 'ข้อความจำเป็นต้องกรอก', en: 'Please write a message.' },
  'contact.messageTooShort': {
    th: 'ข้อความต้องมีอย่างน้อย 10 ตัวอักษร',
    en: 'The message must be at least 10 characters.',
  },
  'contact.messageTooLong': {
    th: 'ข้อความต้องไม่เกิน 5000 ตัวอักษร',
    en: 'The message must be at most 5,000 characters.',
  },
  'contact.sent': { th: 'ส่งข้อความเรียบร้อยแล้ว!', en: 'Your message has been sent!' },
  'contact.failedTitle': { th: 'การส่งข้อความล้มเหลว!', en: 'Sending the message failed!' },
  'contact.failed': {
    th: 'ไม่สามารถส่งข้อความได้ กรุณาลองอีกครั้งในภายหลัง',
    en: 'The message could not be sent. Please try again later.',
  },
  'contact.invalid': {
    th: 'ข้อมูลไม่ครบถ้วนหรือไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง',
    en: 'Some information is missing or not valid. Please check the form.',
  },
  'email.incompleteTitle': { th: 'ข้อมูลไม่ครบถ้วน!', en: 'Information incomplete!' },
  'email.incomplete': { th: 'กรุณากรอกข้อมูลที่จำเป็นให้ครบทุกช่อง', en: 'Please fill in all required fields.' },
  'email.toRequired': { th: 'กรุณากรอกอีเมลผู้รับ', en: 'Please enter the recipient’s e-mail address.' },
  'email.toInvalid': { th: 'รูปแบบอีเมลไม่ถูกต้อง!', en: 'The e-mail address is not valid!' },
  'email.subjectRequired': { th: 'กรุณากรอกหัวข้อ', en: 'Please enter a subject.' },
  'email.subjectTooLong': { th: 'หัวข้อต้องไม่เกิน 200 ตัวอักษร', en: 'The subject must be at most 200 characters.' },
  'email.messageRequired': { th: 'กรุณากรอกข้อความ', en: 'Please write a message.' },
  'email.messageTooLong': {
    th: 'ข้อความต้องไม่เกิน 10000 ตัวอักษร',
    en: 'The message must be at most 10,000 characters.',
  },
  'email.sent': { th: 'ส่งอีเมลเรียบร้อยแล้ว', en: 'The e-mail has been sent.' },
  'email.kept': {
    th: 'บันทึกอีเมลไว้ในกล่องขาออกแล้ว (ยังไม่ได้ตั้งค่าเซิร์ฟเวอร์อีเมล)',
    en: 'The e-mail was kept in the outbox (no mail server is set up).',
  },
  'email.failedTitle': { th: 'เกิดข้อผิดพลาดในการส่งอีเมล', en: 'Error sending the e-mail' },
  'email.failed': { th: 'ส่งอีเมลไม่สำเร็จ!', en: 'The e-mail could not be sent!' },
  'outreach.loaded': { th: 'โหลดข้อความสำเร็จ', en: 'Messages loaded.' },
  'notifications.loaded': { th: 'โหลดการแจ้งเตือนสำเร็จ', en: 'Notifications loaded.' },
  'notifications.filter': {
    th: 'ตัวกรองต้องเป็น all, unread, system หรือ course',
    en: 'The filter must be all, unread, system or course.',
  },
  'notifications.read': { th: 'ทำเครื่องหมายว่าอ่านแล้ว', en: 'Marked as read.' },
  'notifications.idsInvalid': {
    th: 'กรุณาระบุรหัสการแจ้งเตือน 1 ถึง 100 รายการ',
    en: 'Please give from 1 to 100 notification ids.',
  },
  'calendar.issued': {
    th: 'สร้างลิงก์ปฏิทินแล้ว ลิงก์เดิม (ถ้ามี) ใช้ไม่ได้อีกต่อไป',
    en: 'Your calendar link is ready. Any earlier link no longer works.',
  },
  'calendar.notFound': {
    th: 'ไม่พบปฏิทินนี้ ลิงก์อาจถูกรีเซ็ตแล้ว',
    en: 'There is no such calendar. The link may have been reset.',
  },
  'certificate.percentInvalid': {
    th: 'เกณฑ์ต้องเป็นจำนวนเต็ม 1 ถึง 100 เปอร์เซ็นต์',
    en: 'The rule must be a whole number from 1 to 100 percent.',
  },
  'certificate.ruleSet': { th: 'บันทึกเกณฑ์การผ่านหลักสูตรแล้ว', en: 'The completion rule is saved.' },
  'certificate.reasonRequired': { th: 'กรุณาระบุเหตุผลที่เพิกถอน', en: 'Please give the reason for revoking.' },
  'certificate.reasonTooLong': { th: 'เหตุผลยาวได้ไม่เกิน 500 ตัวอักษร', en: 'The reason can be at most 500 characters.' },
  'certificate.notFound': { th: 'ไม่พบประกาศนียบัตรนี้', en: 'There is no such certificate.' },
  'certificate.revoked': { th: 'เพิกถอนประกาศนียบัตรแล้ว', en: 'The certificate is revoked.' },
  'certificate.alreadyRevoked': {
    th: 'ประกาศนียบัตรนี้ถูกเพิกถอนไปแล้ว',
    en: 'This certificate was already revoked.',
  },
  'certificate.courseNotOver': {
    th: 'ยังออกประกาศนียบัตรไม่ได้ รอบสุดท้ายของหลักสูตรยังไม่จบ',
    en: 'Certificates can be issued only after the course’s last round has ended.',
  },
  'certificate.issued': { th: 'ตัดสินการออกประกาศนียบัตรแล้ว', en: 'Certificates are decided.' },
  'certificate.subject': {
    th: 'ประกาศนียบัตรของคุณ',
    en: 'Your certificate of completion',
  },
  'import.notCsv': {
    th: 'อ่านไฟล์ไม่ได้ กรุณาใช้ไฟล์ CSV (UTF-8) ที่มีแถวหัวตาราง',
    en: 'The file could not be read. Please use a CSV file (UTF-8) with a header row.',
  },
  'import.tooLarge': { th: 'ไฟล์ใหญ่เกินไป (ไม่เกิน 10 MB)', en: 'The file is too large (10 MB at most).' },
  'import.tooManyRows': {
    th: 'ไฟล์มีรายชื่อได้ไม่เกิน 20,000 แถว',
    en: 'A file can hold at most 20,000 people.',
  },
  'import.empty': { th: 'ไฟล์ไม่มีรายชื่อ', en: 'The file has nobody in it.' },
  'import.missingColumns': {
    th: 'ไฟล์ต้องมีคอลัมน์ username, personalId, personalPhone และ personalEmail',
    en: 'The file must have the columns username, personalId, personalPhone and personalEmail.',
  },
  'import.chunkTooLarge': {
    th: 'ส่งได้ครั้งละไม่เกิน 250 แถว',
    en: 'At most 250 rows can be sent at once.',
  },
  'import.duplicateInFile': {
    th: 'ซ้ำกับแถวอื่นในไฟล์นี้',
    en: 'Also on another row of this file.',
  },
  'import.checked': { th: 'ตรวจสอบไฟล์แล้ว', en: 'The file is checked.' },
  'import.done': { th: 'นำเข้าแล้ว', en: 'Imported.' },
  'route.notFound': { th: 'ไม่พบเส้นทางที่เรียก', en: 'No such API route.' },
  'server.error': { th: 'เกิดข้อผิดพลาดในระบบ', en: 'Something went wrong on the server.' },
  'server.unavailable': {
    th: 'ระบบไม่พร้อมให้บริการชั่วคราว กรุณาลองใหม่ในอีกสักครู่',
    en: 'The service is unavailable for a moment. Please try again shortly.',
  },
} as const satisfies Record<string, { th: string; en: string }>;

export type MessageKey = keyof typeof messages;
export type Language = 'th' | 'en';

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(messages, value);
}

/** The message in the given language; a text that is not a key is returned as it is. */
export function translate(keyOrText: string, language: Language): string {
  return isMessageKey(keyOrText) ? messages[keyOrText][language] : keyOrText;
}
